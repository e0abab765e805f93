/**
 * The one spelling of second factors on every screen (users list, user page, activity, audit):
 * the API's type words (`totp`, `sms`, `passkey`, `backup_codes` of the admin factors list,
 * `backup_code` of `mfa_factors` and sign-in events) as an admin reads them.
 */
const FACTOR_NAMES: Record<string, string> = {
  totp: 'Authenticator app',
  sms: 'SMS',
  passkey: 'Passkey',
  backup_codes: 'Backup codes',
  backup_code: 'Backup codes',
};

export function factorName(type: string): string {
  return FACTOR_NAMES[type] ?? type;
}
