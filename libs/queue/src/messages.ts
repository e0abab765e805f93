/** Mail templates the worker renders (text and HTML parts, with the project's name). */
export type MailTemplate =
  | 'verify-email'
  | 'password-reset'
  | 'magic-link'
  | 'invitation'
  | 'email-change'
  | 'email-changed'
  | 'set-password';

export interface MailMessage {
  template: MailTemplate;
  to: string;
  projectId: string;
  projectName: string;
  /** Template variables, e.g. `link`, `expires_in_minutes`, `organization_name`. */
  variables: Record<string, string>;
}

export interface SmsMessage {
  to: string;
  body: string;
}

/** Job data in Redis: the message sealed with AES-GCM under ENCRYPTION_KEY (links carry one-time tokens). */
export interface SealedJob {
  sealed: string;
}
