import { applicationPageLink, type ResolvedProject } from '@gatehouse/identity';
import type { MailMessage, MailTemplate } from '@gatehouse/queue';
import { withQuery } from './redirect-urls';

/** Where the application takes users back by default: `default_redirect_url`, else its first registered redirect URL. */
export function defaultApplicationRedirect(project: ResolvedProject): string | null {
  return (
    [project.settings.default_redirect_url, project.redirectUrls[0]].find(
      (v): v is string => typeof v === 'string' && v.length > 0,
    ) ?? null
  );
}

/**
 * Verification and reset mails link to the application's page (applicationPageLink), or carry the
 * bare token when the project has no page to link to.
 */
export function applicationLink(
  project: ResolvedProject,
  kind: 'email_verification_url' | 'password_reset_url',
  token: string,
): string {
  return applicationPageLink(project, kind, token) ?? token;
}

/** Magic-link mails point at the runtime itself, from PUBLIC_AUTH_URL. */
export function magicLink(publicAuthUrl: string, project: ResolvedProject, token: string): string {
  return withQuery(`${publicAuthUrl}/v1/auth/magic-link/verify`, {
    token,
    project_key: project.publishableKey,
  });
}

/** A mail of the project to one address: the template, and the variables it fills in. */
export function projectMail(
  project: ResolvedProject,
  to: string,
  template: MailTemplate,
  variables: Record<string, string>,
): MailMessage {
  return { template, to, projectId: project.id, projectName: project.name, variables };
}
