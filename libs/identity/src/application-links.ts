/** An application page a mail links to, named by a project setting (docs/api-contract.md §10). */
export type ApplicationPage = 'email_verification_url' | 'password_reset_url' | 'invitation_url';

/**
 * Where a verification, reset, set-password or invitation mail links to: the project's own page
 * setting, else `settings.default_redirect_url`, else its first registered redirect URL, with
 * `?token=…` set. Null when the project has none of these. Never built from the request.
 */
export function applicationPageLink(
  project: { settings: object; redirectUrls: string[] },
  page: ApplicationPage,
  token: string,
): string | null {
  const settings = project.settings as Record<string, unknown>;
  const base = [settings[page], settings.default_redirect_url, project.redirectUrls[0]].find(
    (v): v is string => typeof v === 'string' && v.length > 0,
  );
  if (!base) return null;
  const url = new URL(base);
  url.searchParams.set('token', token);
  return url.toString();
}
