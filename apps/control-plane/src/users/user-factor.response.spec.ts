import { phoneNumberHint } from './user-factor.response';

describe('phoneNumberHint', () => {
  it('keeps the first three and the last two characters of an E.164 number', () => {
    expect(phoneNumberHint('+4915112345612')).toBe('+49•••••••••12');
    expect(phoneNumberHint('+14155550123')).toBe('+14•••••••23');
  });

  it('hides a number too short to show anything of', () => {
    expect(phoneNumberHint('+1234')).toBe('•••••');
  });
});
