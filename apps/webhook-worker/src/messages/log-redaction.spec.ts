import { randomBytes } from 'node:crypto';
import { renderMail } from './mail-templates';
import { redactMailText, redactSmsBody } from './log-redaction';

const token = () => randomBytes(32).toString('base64url');

describe('what log mode writes of a message', () => {
  it('keeps the mail readable with every link token replaced', () => {
    const [verify, reset, magic, invite, bare] = [token(), token(), token(), token(), token()];
    const texts = [
      renderMail({
        template: 'verify-email',
        to: 'a@example.com',
        projectId: 'p',
        projectName: 'Acme 2024',
        variables: {
          link: `https://app.example.com:8443/verify?token=${verify}`,
          expires_in_hours: '24',
        },
      }).text,
      renderMail({
        template: 'password-reset',
        to: 'a@example.com',
        projectId: 'p',
        projectName: 'Acme',
        variables: {
          link: `http://localhost:3000/cb?next=%2Fhome&token=${reset}#top`,
          expires_in_minutes: '60',
        },
      }).text,
      renderMail({
        template: 'magic-link',
        to: 'a@example.com',
        projectId: 'p',
        projectName: 'Acme',
        variables: {
          link: `https://auth.example.com/v1/auth/magic-link/verify?token=${magic}&project_key=pk_${'a'.repeat(32)}`,
          expires_in_minutes: '15',
        },
      }).text,
      renderMail({
        template: 'invitation',
        to: 'a@example.com',
        projectId: 'p',
        projectName: 'Acme',
        variables: {
          link: `https://app.example.com/invite?token=${invite}`,
          organization_name: 'Org',
          role: 'member',
        },
      }).text,
      renderMail({
        template: 'verify-email',
        to: 'a@example.com',
        projectId: 'p',
        projectName: 'Acme',
        variables: { link: bare, expires_in_hours: '24' },
      }).text,
    ].map(redactMailText);
    const all = texts.join('\n');
    for (const secret of [verify, reset, magic, invite, bare]) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/[A-Za-z0-9_-]{32,}/);
    expect(texts[0]).toContain(
      'Confirm email: https://app.example.com:8443/verify?token=[redacted]',
    );
    expect(texts[0]).toContain('Acme 2024');
    expect(texts[1]).toContain('http://localhost:3000/cb?next=%2Fhome&token=[redacted]#top');
    expect(texts[2]).toContain(
      'https://auth.example.com/v1/auth/magic-link/verify?token=[redacted]&project_key=',
    );
    expect(texts[3]).toContain(
      'Accept the invitation: https://app.example.com/invite?token=[redacted]',
    );
    expect(texts[4]).toContain('Confirm email: [redacted]');
  });

  it('keeps the SMS readable with the code replaced', () => {
    expect(
      redactSmsBody('Your Acme App verification code is 012345. It expires in 10 minutes.'),
    ).toBe('Your Acme App verification code is [redacted]. It expires in 10 minutes.');
    expect(redactSmsBody('Your Acme sign-in code is 987654. It expires in 10 minutes.')).toBe(
      'Your Acme sign-in code is [redacted]. It expires in 10 minutes.',
    );
    expect(redactSmsBody('Code:4242 or 12345678, within 10 minutes')).toBe(
      'Code:[redacted] or [redacted], within 10 minutes',
    );
    const t = token();
    expect(redactSmsBody(`Open https://a.example.com/x?token=${t}`)).toBe(
      'Open https://a.example.com/x?token=[redacted]',
    );
  });
});
