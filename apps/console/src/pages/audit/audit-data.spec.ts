import { actionQuery, dataLines } from './audit-data';

describe('audit data as the console shows it', () => {
  it('lists each changed field as from → to, a secret without its values, other members as facts', () => {
    expect(
      dataLines({
        changes: {
          name: { from: 'Shop', to: 'Storefront' },
          allowed_origins: { from: [], to: ['https://a.example'] },
          client_secret: { changed: true },
        },
        reason: 'locked',
      }),
    ).toEqual([
      { kind: 'change', field: 'name', from: 'Shop', to: 'Storefront' },
      { kind: 'change', field: 'allowed_origins', from: 'none', to: '["https://a.example"]' },
      { kind: 'secret', field: 'client_secret' },
      { kind: 'fact', key: 'reason', value: 'locked' },
    ]);
    expect(dataLines({})).toEqual([]);
  });

  it('leaves out a field sent with the value it had, the list of changed names and the resource the row names', () => {
    expect(
      dataLines({
        project: { id: 'p1', name: 'Storefront' },
        changed: ['name', 'redirect_urls', 'settings.rp_id'],
        changes: {
          name: { from: 'Shop', to: 'Storefront' },
          redirect_urls: { from: [], to: [] },
          'settings.rp_id': { from: null, to: null },
        },
      }),
    ).toEqual([{ kind: 'change', field: 'name', from: 'Shop', to: 'Storefront' }]);
  });

  it('sends a known prefix as prefix.*, an action or a pattern as typed', () => {
    expect(actionQuery('project')).toBe('project.*');
    expect(actionQuery('project.')).toBe('project.*');
    expect(actionQuery('organization.member')).toBe('organization.member.*');
    expect(actionQuery('user.*')).toBe('user.*');
    expect(actionQuery('user.created')).toBe('user.created');
    expect(actionQuery('  ')).toBeUndefined();
    expect(actionQuery('nothing.like.this')).toBe('nothing.like.this');
  });
});
