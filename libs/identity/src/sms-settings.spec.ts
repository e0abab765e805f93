import { projectSmsSettings } from './sms-settings';

describe('projectSmsSettings', () => {
  it('fills each absent member with its default', () => {
    expect(projectSmsSettings({})).toEqual({ max_per_hour: 100, allowed_countries: ['*'] });
    expect(projectSmsSettings({ sms: { max_per_hour: 5 } })).toEqual({
      max_per_hour: 5,
      allowed_countries: ['*'],
    });
    expect(projectSmsSettings({ sms: { allowed_countries: ['FR'] } })).toEqual({
      max_per_hour: 100,
      allowed_countries: ['FR'],
    });
  });

  it('fails closed on a stored country list that is not a list of strings', () => {
    expect(
      projectSmsSettings({ sms: { allowed_countries: 'FR' as unknown as string[] } })
        .allowed_countries,
    ).toEqual([]);
    expect(
      projectSmsSettings({ sms: { allowed_countries: ['FR', 3] as unknown as string[] } })
        .allowed_countries,
    ).toEqual(['FR']);
  });
});
