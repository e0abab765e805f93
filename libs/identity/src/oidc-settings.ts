import type { ProjectSettings } from '@gatehouse/entities';

/** `settings.oidc` of a project (docs/api-contract.md §11), every member present. */
export interface ProjectOidcSettings {
  /** Whether the project's OpenID Connect provider answers (discovery of a disabled one is 404). */
  enabled: boolean;
  /** The application's page that completes interactions (one of the project's redirect URLs); null: the hosted pages. */
  login_url: string | null;
  /** Whether RFC 7591 dynamic client registration is open. */
  dynamic_registration: boolean;
  /** Whether every client must push its authorization requests (RFC 9126 §5). */
  require_pushed_authorization_requests: boolean;
  /** Whether the hosted sign-in page lets a person create an account (its link, and `prompt=create`). */
  allow_sign_up: boolean;
}

export const DEFAULT_OIDC_SETTINGS: Readonly<ProjectOidcSettings> = {
  enabled: false,
  login_url: null,
  dynamic_registration: false,
  require_pushed_authorization_requests: false,
  allow_sign_up: true,
};

/**
 * A project's `settings.oidc` with each absent member at its default: a project that never set it
 * has the provider off. A member of the wrong type (never written by the admin API) counts as
 * absent, so nothing but `true` turns the provider, registration or required PAR on (and nothing
 * but `false` turns sign-up off).
 */
export function projectOidcSettings(settings: ProjectSettings): ProjectOidcSettings {
  const oidc: Record<string, unknown> =
    settings.oidc && typeof settings.oidc === 'object' ? settings.oidc : {};
  return {
    enabled: oidc.enabled === true,
    login_url: typeof oidc.login_url === 'string' ? oidc.login_url : null,
    dynamic_registration: oidc.dynamic_registration === true,
    require_pushed_authorization_requests: oidc.require_pushed_authorization_requests === true,
    allow_sign_up: oidc.allow_sign_up !== false,
  };
}
