import { projectOidcSettings } from '../oidc-settings';
import type { ResolvedProject } from '../projects-cache.service';

/**
 * The origins whose pages may use a project's session cookie (the CSRF rule), read its CORS
 * answers and use its passkeys: its allowed origins, plus the auth runtime's own public origin
 * when the project is an OpenID Connect provider, and only then, because the hosted sign-in
 * pages are served from there (docs/oidc.md, "Hosted pages").
 */
export function projectOrigins(
  project: Pick<ResolvedProject, 'allowedOrigins' | 'settings'>,
  authOrigin: string,
): string[] {
  const origins = Array.isArray(project.allowedOrigins)
    ? project.allowedOrigins.filter((o) => typeof o === 'string')
    : [];
  return projectOidcSettings(project.settings ?? {}).enabled && !origins.includes(authOrigin)
    ? [...origins, authOrigin]
    : origins;
}

/** The origin of PUBLIC_AUTH_URL (what `projectOrigins` adds). */
export function authOriginOf(publicAuthUrl: string): string {
  return new URL(publicAuthUrl).origin;
}
