import type { MailMessage } from '@gatehouse/queue';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

interface Template {
  subject: (v: Record<string, string>, project: string) => string;
  intro: (v: Record<string, string>, project: string) => string;
  /** The button's label; null for a notice without a link. */
  action: string | null;
  outro: (v: Record<string, string>) => string;
}

const TEMPLATES: Record<MailMessage['template'], Template> = {
  'verify-email': {
    subject: (_, p) => `Confirm your email for ${p}`,
    intro: (_, p) => `Please confirm that this is your email address for ${p}.`,
    action: 'Confirm email',
    outro: (v) =>
      `This link expires in ${v.expires_in_hours ?? '24'} hours. If you did not create this account yourself, do not confirm it: ignore this message.`,
  },
  'password-reset': {
    subject: (_, p) => `Reset your ${p} password`,
    intro: (_, p) => `Someone asked to reset the password of your ${p} account.`,
    action: 'Choose a new password',
    outro: (v) =>
      `This link expires in ${v.expires_in_minutes ?? '60'} minutes. If you did not ask for it, ignore this message; your password stays the same.`,
  },
  'set-password': {
    subject: (_, p) => `Set your ${p} password`,
    intro: (_, p) => `An account was created for you on ${p}. Choose a password to start using it.`,
    action: 'Choose a password',
    outro: (v) =>
      `This link expires in ${v.expires_in_days ?? '7'} days and works once. If you did not expect this account, ignore this message.`,
  },
  'magic-link': {
    subject: (_, p) => `Your sign-in link for ${p}`,
    intro: (_, p) => `Use this link to sign in to ${p}. It works once.`,
    action: 'Sign in',
    outro: (v) =>
      `This link expires in ${v.expires_in_minutes ?? '15'} minutes. If you did not ask for it, ignore this message.`,
  },
  'email-change': {
    subject: (_, p) => `Confirm your new email for ${p}`,
    intro: (_, p) => `Please confirm that this is the new email address of your ${p} account.`,
    action: 'Confirm new email',
    outro: (v) =>
      `This link expires in ${v.expires_in_hours ?? '24'} hours. Until then your account keeps its current address. If you did not ask for this, ignore this message.`,
  },
  'email-changed': {
    subject: (_, p) => `The email of your ${p} account was changed`,
    intro: (v, p) =>
      `The email address of your ${p} account was changed to ${v.new_email ?? 'another address'}. Mail about the account now goes there.`,
    action: null,
    outro: () =>
      'If you did not make this change, contact the service right away: someone else may be using your account.',
  },
  invitation: {
    subject: (v, p) =>
      `You are invited to join ${v.organization_name ?? 'an organization'} on ${p}`,
    intro: (v, p) =>
      `You have been invited to join ${v.organization_name ?? 'an organization'} on ${p} as ${v.role ?? 'member'}.`,
    action: 'Accept the invitation',
    outro: () =>
      'This invitation expires in 7 days. If you did not expect it, ignore this message.',
  },
};

/** Text and HTML parts of a mail, with the project's name; every variable is escaped in HTML. */
export function renderMail(m: MailMessage): RenderedMail {
  const t = TEMPLATES[m.template];
  const v = m.variables;
  const link = v.link ?? '';
  const subject = t.subject(v, m.projectName);
  const intro = t.intro(v, m.projectName);
  const outro = t.outro(v);
  const text = [
    intro,
    '',
    ...(t.action ? [`${t.action}: ${link}`, ''] : []),
    outro,
    '',
    `— ${m.projectName}`,
  ].join('\n');
  const button = t.action
    ? `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#1f2937;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(t.action)}</a></p>
<p style="font-size:13px;color:#555">Or paste this link into your browser: ${escapeHtml(link)}</p>
`
    : '';
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<p>${escapeHtml(intro)}</p>
${button}<p style="font-size:13px;color:#555">${escapeHtml(outro)}</p>
<p>— ${escapeHtml(m.projectName)}</p>
</body></html>`;
  return { subject, text, html };
}
