import { createPrivateKey } from 'node:crypto';
import type { AppConfig } from '@gatehouse/config';
import {
  OAUTH_PROVIDERS,
  openOAuthSecret,
  type OAuthProvider,
  type ResolvedProject,
} from '@gatehouse/identity';

/** How a provider proves who the user is: a signed OpenID Connect ID token, or GitHub's REST API. */
export type ProviderKind = 'oidc' | 'github';

interface ProviderDefaults {
  kind: ProviderKind;
  issuer: string | null;
  /** Other spellings of the default issuer found in real ID tokens (Google drops the scheme). */
  issuerAliases: string[];
  authorizationUrl: string;
  tokenUrl: string;
  userinfoUrl: string | null;
  jwksUrl: string | null;
  scopes: string[];
  /** Scopes we add whatever the settings say, because the flow cannot work without them. */
  requiredScopes: string[];
}

/**
 * The real providers' endpoints, used when the project's settings override nothing. Microsoft's
 * multi-tenant (`common`) issuer carries the user's tenant id, hence the `{tenantid}` template.
 */
export const PROVIDER_DEFAULTS: Record<OAuthProvider, ProviderDefaults> = {
  google: {
    kind: 'oidc',
    issuer: 'https://accounts.google.com',
    issuerAliases: ['accounts.google.com'],
    authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    userinfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
    jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
    scopes: ['openid', 'email', 'profile'],
    requiredScopes: ['openid'],
  },
  github: {
    kind: 'github',
    issuer: null,
    issuerAliases: [],
    authorizationUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    userinfoUrl: 'https://api.github.com/user',
    jwksUrl: null,
    scopes: ['read:user', 'user:email'],
    requiredScopes: ['user:email'],
  },
  microsoft: {
    kind: 'oidc',
    issuer: 'https://login.microsoftonline.com/{tenantid}/v2.0',
    issuerAliases: [],
    authorizationUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    tokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    userinfoUrl: 'https://graph.microsoft.com/oidc/userinfo',
    jwksUrl: 'https://login.microsoftonline.com/common/discovery/v2.0/keys',
    scopes: ['openid', 'email', 'profile'],
    requiredScopes: ['openid'],
  },
  apple: {
    kind: 'oidc',
    issuer: 'https://appleid.apple.com',
    issuerAliases: [],
    authorizationUrl: 'https://appleid.apple.com/auth/authorize',
    tokenUrl: 'https://appleid.apple.com/auth/token',
    userinfoUrl: null,
    jwksUrl: 'https://appleid.apple.com/auth/keys',
    scopes: ['name', 'email'],
    requiredScopes: ['openid'],
  },
};

export interface AppleSigningKey {
  teamId: string;
  keyId: string;
  privateKeyPem: string;
}

/**
 * One provider of one project, ready to use: secrets opened, defaults filled in. Endpoint URLs
 * left null are discovered from `{issuer}/.well-known/openid-configuration` (OIDC providers whose
 * issuer is overridden) — see ProviderEndpoints.
 */
export interface ProviderSettings {
  provider: OAuthProvider;
  kind: ProviderKind;
  clientId: string;
  /** Null for Apple, whose client secret is a JWT built per request from `apple`. */
  clientSecret: string | null;
  apple: AppleSigningKey | null;
  scopes: string[];
  issuer: string | null;
  issuerAliases: string[];
  issuerOverridden: boolean;
  authorizationUrl: string | null;
  tokenUrl: string | null;
  userinfoUrl: string | null;
  jwksUrl: string | null;
  /** GitHub only: `{userinfo_url}/emails` unless set. */
  emailsUrl: string | null;
}

export type ProviderSettingsResult =
  { ok: true; settings: ProviderSettings } | { ok: false; problem: string };

const MAX_SCOPES = 50;

export function isOAuthProvider(value: string): value is OAuthProvider {
  return (OAUTH_PROVIDERS as readonly string[]).includes(value);
}

function text(raw: Record<string, unknown>, key: string): string | null {
  const v = raw[key];
  return typeof v === 'string' && v.trim().length > 0 ? v.trim() : null;
}

function httpUrl(raw: Record<string, unknown>, key: string): string | null | undefined {
  const v = text(raw, key);
  if (v === null) return null;
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || u.protocol === 'http:' ? v : undefined;
  } catch {
    return undefined;
  }
}

function open(
  config: AppConfig,
  projectId: string,
  provider: OAuthProvider,
  field: 'client_secret' | 'private_key',
  sealed: string | null,
): string | null {
  if (!sealed) return null;
  try {
    return openOAuthSecret(config, projectId, provider, field, sealed);
  } catch {
    return null;
  }
}

function scopesOf(raw: Record<string, unknown>, d: ProviderDefaults): string[] | null {
  const given = raw.scopes;
  let scopes: string[];
  if (given === undefined || given === null) scopes = [...d.scopes];
  else if (
    Array.isArray(given) &&
    given.length <= MAX_SCOPES &&
    given.every((s) => typeof s === 'string' && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s))
  ) {
    scopes = [...(given as string[])];
  } else return null;
  for (const s of d.requiredScopes) if (!scopes.includes(s)) scopes.unshift(s);
  return [...new Set(scopes)];
}

/**
 * Reads `settings.oauth_providers.<provider>` (docs/api-contract.md §5, §10). A provider that is absent,
 * not `enabled: true`, or lacks what it needs (client id; client secret, or Apple's team id, key
 * id and a P-256 private key; well-formed URLs and scopes) is not usable: the reason comes back.
 */
export function readProviderSettings(
  config: AppConfig,
  project: Pick<ResolvedProject, 'id' | 'settings'>,
  provider: OAuthProvider,
): ProviderSettingsResult {
  const all = project.settings.oauth_providers;
  const raw = all && typeof all === 'object' && !Array.isArray(all) ? all[provider] : undefined;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, problem: 'is not configured for this project' };
  if (raw.enabled !== true) return { ok: false, problem: 'is not enabled for this project' };
  const d = PROVIDER_DEFAULTS[provider];
  const notConfigured = (what: string): ProviderSettingsResult => ({
    ok: false,
    problem: `is not fully configured for this project (${what})`,
  });

  const clientId = text(raw, 'client_id');
  if (!clientId) return notConfigured('client_id');
  const scopes = scopesOf(raw, d);
  if (!scopes) return notConfigured('scopes');

  const urls: Record<string, string | null> = {};
  for (const key of [
    'issuer',
    'authorization_url',
    'token_url',
    'userinfo_url',
    'emails_url',
    'jwks_url',
  ]) {
    const v = httpUrl(raw, key);
    if (v === undefined) return notConfigured(key);
    urls[key] = v;
  }

  let clientSecret: string | null = null;
  let apple: AppleSigningKey | null = null;
  if (provider === 'apple') {
    const teamId = text(raw, 'team_id');
    const keyId = text(raw, 'key_id');
    const pem = open(
      config,
      project.id,
      provider,
      'private_key',
      text(raw, 'private_key_encrypted'),
    );
    if (!teamId || !keyId || !pem || !isP256PrivateKey(pem))
      return notConfigured('team_id, key_id, private_key');
    apple = { teamId, keyId, privateKeyPem: pem };
  } else {
    clientSecret = open(
      config,
      project.id,
      provider,
      'client_secret',
      text(raw, 'client_secret_encrypted'),
    );
    if (!clientSecret) return notConfigured('client_secret');
  }

  const issuerOverridden = d.kind === 'oidc' && urls.issuer !== null && urls.issuer !== d.issuer;
  const issuer = d.kind === 'oidc' ? (urls.issuer ?? d.issuer) : null;
  // An overridden issuer is a different deployment: its endpoints come from the settings or
  // from its discovery document, never from the real provider's defaults.
  const fallback = <T>(value: T): T | null => (issuerOverridden ? null : value);
  const userinfoUrl = urls.userinfo_url ?? fallback(d.userinfoUrl);
  return {
    ok: true,
    settings: {
      provider,
      kind: d.kind,
      clientId,
      clientSecret,
      apple,
      scopes,
      issuer,
      issuerAliases: issuerOverridden ? [] : d.issuerAliases,
      issuerOverridden,
      authorizationUrl: urls.authorization_url ?? fallback(d.authorizationUrl),
      tokenUrl: urls.token_url ?? fallback(d.tokenUrl),
      userinfoUrl,
      jwksUrl: urls.jwks_url ?? fallback(d.jwksUrl),
      emailsUrl:
        d.kind === 'github'
          ? (urls.emails_url ?? (userinfoUrl ? `${userinfoUrl.replace(/\/+$/, '')}/emails` : null))
          : null,
    },
  };
}

function isP256PrivateKey(pem: string): boolean {
  try {
    const key = createPrivateKey(pem);
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  } catch {
    return false;
  }
}
