/**
 * What log mode (`MAIL_TRANSPORT=log`, `SMS_TRANSPORT=log`) writes of a message: the message as
 * sent, minus what would let a reader of the logs act as its recipient. Links keep their host,
 * path and other parameters, so a developer sees which mail went where.
 */
const REDACTED = '[redacted]';

/** The value of a `token=` parameter (verification, reset, magic-link and invitation links). */
const TOKEN_PARAMETER = /([?&#;]token=)[^&#\s"'<>]+/gi;
/** Any run of 32 or more base64url characters: a bare token (a link without a page to go to). */
const LONG_TOKEN = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,}(?![A-Za-z0-9_-])/g;
/** Runs of four or more digits: one-time codes (SMS codes are six). */
const DIGITS = /\d{4,}/g;

export function redactMailText(text: string): string {
  return text.replace(TOKEN_PARAMETER, `$1${REDACTED}`).replace(LONG_TOKEN, REDACTED);
}

export function redactSmsBody(body: string): string {
  return redactMailText(body).replace(DIGITS, REDACTED);
}
