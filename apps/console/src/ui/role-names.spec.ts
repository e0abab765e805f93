import { roleLabel } from './role-names';

describe('roleLabel', () => {
  const roles = [
    { key: 'admin', name: 'Owner' },
    { key: 'member', name: 'Member' },
    { key: 'billing', name: 'Billing' },
  ];

  it("names a role as the project's roles name it", () => {
    expect(roleLabel('billing', roles)).toBe('Billing');
    expect(roleLabel('admin', roles)).toBe('Owner');
  });

  it('names the built-in roles before the roles are loaded, and any other by its key', () => {
    expect(roleLabel('admin')).toBe('Admin');
    expect(roleLabel('member')).toBe('Member');
    expect(roleLabel('billing')).toBe('billing');
    expect(roleLabel('gone', roles)).toBe('gone');
  });
});
