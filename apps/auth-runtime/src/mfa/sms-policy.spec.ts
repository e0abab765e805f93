import type { ResolvedProject } from '@gatehouse/identity';
import { ProblemError } from '@gatehouse/problem-details';
import { assertSmsCountry, phoneCountry, smsCountryAllowed } from './sms-policy';

const project = (sms?: {
  max_per_hour?: number;
  allowed_countries?: string[];
}): ResolvedProject => ({
  id: 'p',
  tenantId: 't',
  name: 'P',
  isConsole: false,
  allowedOrigins: [],
  redirectUrls: [],
  publishableKey: 'pk',
  settings: sms ? { sms } : {},
});

describe('SMS country policy', () => {
  it('finds the country of a number from its calling code and leading digits', () => {
    expect(phoneCountry('+33612345678')).toBe('FR');
    expect(phoneCountry('+14155550123')).toBe('US');
    expect(phoneCountry('+16135550123')).toBe('CA');
    expect(phoneCountry('+447400123456')).toBe('GB');
    expect(phoneCountry('+88212345678')).toBeNull(); // international networks: no country
    expect(phoneCountry('+999123456')).toBeNull();
  });

  it('allows any number, one without a country included, under ["*"] and by default', () => {
    for (const p of [
      project(),
      project({ max_per_hour: 5 }),
      project({ allowed_countries: ['*'] }),
    ]) {
      expect(
        ['+33612345678', '+14155550123', '+88212345678'].map((n) => smsCountryAllowed(p, n)),
      ).toEqual([true, true, true]);
    }
  });

  it('allows only the listed countries otherwise; a number without a country is outside every list', () => {
    const p = project({ allowed_countries: ['FR', 'CA'] });
    expect(
      ['+33612345678', '+16135550123', '+14155550123', '+88212345678'].map((n) =>
        smsCountryAllowed(p, n),
      ),
    ).toEqual([true, true, false, false]);
  });

  it('refuses with validation-error on phone_number, for a typed and for an enrolled number', () => {
    const p = project({ allowed_countries: ['FR'] });
    expect(() => assertSmsCountry(p, '+33612345678', false)).not.toThrow();
    for (const enrolled of [false, true]) {
      let err: unknown;
      try {
        assertSmsCountry(p, '+14155550123', enrolled);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ProblemError);
      expect((err as ProblemError).slug).toBe('validation-error');
      expect(Object.keys((err as ProblemError).options.errors ?? {})).toEqual(['phone_number']);
    }
  });
});
