import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Account, Configuration, KoaContextWithOIDC, Provider } from 'oidc-provider';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { hmacSha256, randomToken, safeEqual, sha256Hex } from '@gatehouse/crypto';
import { ApiResourcesRepository, newOAuthClientId, newOAuthClientSecret, projectOidcSettings, SigningKeysService, type ResolvedProject } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { BackgroundTasks } from '../common/background-tasks';
import { hostedPagesCsp } from '../hosted-pages/hosted-pages-files';
import { accessTokenTtl } from '../sessions/sessions.service';
import { OAuthGrantsRepository } from './oauth-grants.repository';
import { ACR_VALUES, acrSatisfies, requiredAcr } from './oidc-acr';
import { oidcLibrary } from './oidc-library';
import { oidcRequestState, type OidcUserRow } from './oidc-request-state';
import { OidcStore } from './oidc-store';

/** How long a built provider serves before its keys and settings are read again. */
const RECHECK_MS = 30_000;
export const OIDC_SCOPES = ['openid', 'offline_access', 'profile', 'email'];
/** Scopes an access token for an API on an allowed origin (RFC 8707 `resource`, not a registered API resource) may carry. */
const RESOURCE_SCOPES = 'profile email';

/** The routes under the issuer; every URL is whatever discovery says (CONTRACT §11). */
export const OIDC_ROUTES = {
  authorization: '/authorize',
  token: '/token',
  userinfo: '/userinfo',
  jwks: '/jwks',
  revocation: '/revoke',
  introspection: '/introspect',
  end_session: '/end-session',
  registration: '/register',
  pushed_authorization_request: '/request',
} as const;

interface BuiltProvider {
  provider: Provider;
  callback: ReturnType<Provider['callback']>;
  fingerprint: string;
  checkedAt: number;
}

export function issuerOf(config: AppConfig, projectId: string): string {
  return `${config.http.publicAuthUrl.replace(/\/+$/, '')}/v1/projects/${projectId}`;
}

/** Where the provider sends the browser for an interaction: the project's login page, or the hosted page. */
export function interactionUrl(config: AppConfig, project: ResolvedProject, uid: string): string {
  const target = new URL(projectOidcSettings(project.settings).login_url ?? `${issuerOf(config, project.id)}/pages/sign-in`);
  target.searchParams.set('interaction', uid);
  return target.href;
}

function userClaims(user: OidcUserRow) {
  return { email: user.email, email_verified: user.email_verified, preferred_username: user.username ?? user.email };
}

/**
 * One oidc-provider instance per project (its issuer is the project's), built on first use and
 * rebuilt when the project's settings or signing keys change (checked every 30 s, so a rotated key
 * signs within 30 s on every instance). Configuration follows CONTRACT §11 and the OAuth 2.0
 * Security BCP: code flow only, PKCE S256 for every client, exact redirect URIs, rotating refresh
 * tokens whose reuse revokes the grant, `iss` in every authorization response.
 */
@Injectable()
export class OidcProviders {
  private readonly logger = new Logger('OidcProvider');
  private readonly built = new Map<string, BuiltProvider>();
  private readonly building = new Map<string, Promise<BuiltProvider>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: SigningKeysService,
    private readonly store: OidcStore,
    private readonly grants: OAuthGrantsRepository,
    private readonly clock: Clock,
    private readonly tasks: BackgroundTasks,
    private readonly apiResources: ApiResourcesRepository,
  ) {}

  issuer(projectId: string): string {
    return issuerOf(this.config, projectId);
  }

  async forProject(project: ResolvedProject): Promise<BuiltProvider> {
    const current = this.built.get(project.id);
    if (current && this.clock.nowMs() - current.checkedAt < RECHECK_MS) return current;
    let pending = this.building.get(project.id);
    if (!pending) {
      pending = this.refresh(project, current).finally(() => this.building.delete(project.id));
      this.building.set(project.id, pending);
    }
    return pending;
  }

  private async refresh(project: ResolvedProject, current: BuiltProvider | undefined): Promise<BuiltProvider> {
    await this.keys.ensureActive(project.id, 'RS256');
    const jwks = await this.keys.privateJwks(project.id);
    const fingerprint = sha256Hex(JSON.stringify([project.name, project.settings.oidc ?? null, accessTokenTtl(project.settings.access_token_ttl_seconds), jwks.map((k) => k.kid)]));
    if (current && current.fingerprint === fingerprint) {
      current.checkedAt = this.clock.nowMs();
      return current;
    }
    const provider = this.build(project, jwks);
    const entry: BuiltProvider = { provider, callback: provider.callback(), fingerprint, checkedAt: this.clock.nowMs() };
    this.built.set(project.id, entry);
    return entry;
  }

  private build(project: ResolvedProject, keys: NonNullable<Configuration['jwks']>['keys']): Provider {
    const { Provider: ProviderClass } = oidcLibrary();
    const issuer = this.issuer(project.id);
    const settings = projectOidcSettings(project.settings);
    const accessTtl = accessTokenTtl(project.settings.access_token_ttl_seconds);
    const cookieKey = hmacSha256(this.config.auth.encryptionKey, `oidc-cookies:${project.id}`).toString('base64url');
    const grants = this.grants;
    const apiResources = this.apiResources;
    const findUser = async (userId: string): Promise<OidcUserRow | null> => oidcRequestState.getStore()?.users.get(userId) ?? (await grants.user(project.id, userId));

    const configuration: Configuration = {
      adapter: this.store.adapterFor(project),
      jwks: { keys },
      routes: OIDC_ROUTES,
      scopes: OIDC_SCOPES,
      // `auth_time` is a claim of the `openid` scope: in every ID token (CONTRACT §11), not only when `max_age` asks for it.
      claims: { sid: null, iss: null, openid: ['sub', 'acr', 'amr', 'auth_time'], email: ['email', 'email_verified'], profile: ['preferred_username'] },
      conformIdTokenClaims: false,
      responseTypes: ['code'],
      acrValues: [...ACR_VALUES],
      pkce: { required: (ctx, client) => pkceRequired(ctx, client) },
      allowOmittingSingleRegisteredRedirectUri: false,
      rotateRefreshToken: true,
      extraClientMetadata: {
        properties: ['first_party', 'self_registered', 'require_pkce'],
        // A client registering itself cannot claim to be first-party (which skips consent), nor say how it was registered.
        validator: (ctx, key, value) => {
          if (key === 'first_party' && value !== undefined && value !== false && ctx?.oidc?.route === 'registration') {
            throw new (oidcLibrary().errors.InvalidClientMetadata)('first_party is set by an administrator, not by registration');
          }
          if (key === 'self_registered' && value !== undefined && ctx?.oidc?.route === 'registration') {
            throw new (oidcLibrary().errors.InvalidClientMetadata)('self_registered is not client metadata');
          }
          if (key === 'require_pkce' && value !== undefined && ctx?.oidc?.route === 'registration') {
            throw new (oidcLibrary().errors.InvalidClientMetadata)('require_pkce is set by an administrator: a registered client always uses PKCE');
          }
        },
      },
      clientDefaults: { grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic', id_token_signed_response_alg: 'RS256' },
      enabledJWA: {
        idTokenSigningAlgValues: ['ES256', 'RS256'],
        userinfoSigningAlgValues: ['ES256', 'RS256'],
        introspectionSigningAlgValues: ['ES256', 'RS256'],
        authorizationSigningAlgValues: ['ES256', 'RS256'],
        requestObjectSigningAlgValues: ['ES256', 'RS256'],
        clientAuthSigningAlgValues: ['ES256', 'RS256'],
        dPoPSigningAlgValues: ['ES256', 'RS256'],
      },
      clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
      cookies: {
        keys: [cookieKey],
        names: { session: 'gh_oidc_session', interaction: 'gh_oidc_interaction', resume: 'gh_oidc_resume' },
        long: { signed: true, httpOnly: true, sameSite: 'lax', secure: issuer.startsWith('https:') },
        short: { signed: true, httpOnly: true, sameSite: 'lax', secure: issuer.startsWith('https:') },
      },
      ttl: {
        // An API resource's own lifetime for a token for it (resourceServerInfo), else the project's.
        AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? accessTtl,
        ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? accessTtl,
        AuthorizationCode: 60,
        IdToken: 3600,
        Interaction: 600,
        Session: 14 * 86_400,
        Grant: 30 * 86_400,
        RefreshToken: 30 * 86_400,
      },
      features: {
        devInteractions: { enabled: false },
        revocation: { enabled: true },
        // A client introspects its own tokens only (not the sessions and users behind other clients' tokens).
        introspection: { enabled: true, allowedPolicy: (_ctx, client, token) => (token as { clientId?: string }).clientId === client.clientId },
        userinfo: { enabled: true },
        clientCredentials: { enabled: true },
        // RFC 9126: `{issuer}/request`, then `request_uri` at the authorization endpoint; required
        // for every client when the project says so, or for a client registered with
        // `require_pushed_authorization_requests`.
        pushedAuthorizationRequests: { enabled: true, requirePushedAuthorizationRequests: settings.require_pushed_authorization_requests, allowUnregisteredRedirectUris: false },
        // RFC 9449: sender-constrained access and refresh tokens for a client that sends a DPoP proof.
        dPoP: { enabled: true },
        rpInitiatedLogout: {
          enabled: true,
          logoutSource: (ctx, form) => logoutPage(ctx, form),
          postLogoutSuccessSource: (ctx) => {
            ctx.redirect(`${issuer}/pages/signed-out`);
          },
        },
        resourceIndicators: {
          enabled: true,
          defaultResource: (_ctx, _client, oneOf) => oneOf ?? (undefined),
          useGrantedResource: () => true,
          // RFC 8707 `resource` → an RFC 9068 JWT access token for that API, only for an API the admin
          // named (resourceServerInfo): no client can mint a signed token that an API of the project,
          // or anyone else's, accepts.
          getResourceServerInfo: (ctx, resource, client) => resourceServerInfo(ctx, resource, client, project, accessTtl, apiResources),
        },
        // RFC 7591, when the project opens it: anyone may register a client (never first-party), and reads it back with the registration access token.
        registration: settings.dynamic_registration
          ? {
              enabled: true,
              initialAccessToken: false,
              // Awaited before the provider reads the metadata: the API scopes a client may register are taken out first (registrationApiScopes).
              issueRegistrationAccessToken: async (ctx) => {
                await registrationApiScopes(ctx, project.id, apiResources);
                return true;
              },
              idFactory: () => newOAuthClientId(),
              secretFactory: () => newOAuthClientSecret(),
            }
          : { enabled: false },
      },
      interactions: { policy: interactionPolicy(), url: (_ctx, interaction) => interactionUrl(this.config, project, interaction.uid) },
      issueRefreshToken: (_ctx, client, code) => client.grantTypeAllowed('refresh_token') && (code.scopes.has('offline_access') || client.metadata().first_party === true),
      loadExistingGrant: (ctx) => loadExistingGrant(ctx),
      findAccount: async (_ctx, sub): Promise<Account | undefined> => {
        const user = await findUser(sub);
        if (!user) return undefined;
        return { accountId: user.id, claims: () => ({ sub: user.id, ...userClaims(user) }) };
      },
      renderError: (ctx, out, err) => {
        if (heldRedirects.has(err)) return heldErrorPage(ctx, out, project.name, new URL(this.config.http.publicAuthUrl).origin);
        const target = new URL(`${issuer}/pages/error`);
        target.searchParams.set('error', String(out.error ?? 'server_error'));
        if (out.error_description) target.searchParams.set('error_description', String(out.error_description));
        // The page's own words, chosen by two fixed values: where it happened, and which client setting is the cause.
        target.searchParams.set('context', String(ctx.oidc?.route ?? '').startsWith('end_session') ? 'sign-out' : 'sign-in');
        const hint = out.error_description ? settingHintKey(String(out.error_description)) : null;
        if (hint) target.searchParams.set('hint', hint);
        ctx.redirect(target.href);
      },
      clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => new URL(uri).origin === origin) ?? false,
    };

    const provider = new ProviderClass(issuer, configuration);
    provider.proxy = true;
    // RFC 7592 reads of a registered client: the stored `client_secret` is the secret's hash, never a value to hand back.
    provider.use(async (ctx, next) => {
      await next();
      withSettingHints(ctx);
      const route = (ctx as unknown as { oidc?: { route?: string } }).oidc?.route;
      if (route === 'client' && ctx.body && typeof ctx.body === 'object') {
        delete (ctx.body as Record<string, unknown>).client_secret;
        delete (ctx.body as Record<string, unknown>).self_registered;
      }
    });
    provider.on('server_error', (ctx: KoaContextWithOIDC, err: Error) => {
      holdErrorRedirect(ctx, err);
      this.logger.error(`project ${project.id}: ${err.stack ?? err.message}`);
    });
    provider.on('authorization.error', (ctx: KoaContextWithOIDC, err: Error) => holdErrorRedirect(ctx, err));
    provider.on('grant.error', (ctx: KoaContextWithOIDC, err: { error?: string; error_description?: string }) => {
      const state = oidcRequestState.getStore();
      const params = ctx.oidc.params as { grant_type?: unknown } | undefined;
      const failure = {
        clientId: ctx.oidc.client?.clientId ?? null,
        grantType: typeof params?.grant_type === 'string' ? params.grant_type.slice(0, 100) : null,
        error: String(err.error ?? 'server_error'),
        description: typeof err.error_description === 'string' ? err.error_description.slice(0, 200) : null,
      };
      this.tasks.run('oauth_token.failed', () => this.grants.recordTokenFailure(project.tenantId, project.id, failure, state?.meta ?? { ip: null, userAgent: null }));
    });
    // Client secrets are stored as SHA-256 (oidcClientMetadata); compare the presented one's hash, in constant time.
    provider.Client.prototype.compareClientSecret = function (this: { clientSecret?: string }, actual: string) {
      return Promise.resolve(typeof this.clientSecret === 'string' && safeEqual(sha256Hex(actual), this.clientSecret));
    };
    // A self-registered client's post-logout redirect needs its own ID token (a valid `id_token_hint`,
    // which the provider has checked by now): with only `client_id`, the logout ends on the
    // signed-out page instead (RP-Initiated Logout 1.0 §3: no redirect when the conditions are not met).
    const postLogoutAllowed = provider.Client.prototype.postLogoutRedirectUriAllowed;
    provider.Client.prototype.postLogoutRedirectUriAllowed = function (this: InstanceType<Provider['Client']>, value: string) {
      if (!postLogoutAllowed.call(this, value)) return false;
      if (this.metadata().self_registered !== true) return true;
      const ctx = (ProviderClass as unknown as { ctx?: KoaContextWithOIDC }).ctx;
      if (!ctx?.oidc?.params) return false;
      if (ctx.oidc.entities.IdTokenHint === undefined) ctx.oidc.params.post_logout_redirect_uri = undefined;
      return true;
    };
    // Every ID token carries `sid`, not only for back-channel logout clients, and it is the
    // Gatehouse session that signed the user in (the `sid` of our own access tokens).
    provider.Client.prototype.includeSid = () => true;
    const session = provider.Session.prototype as unknown as { ensureClientContainer(clientId: string): void; sidFor(clientId: string, value?: string): string | undefined };
    session.ensureClientContainer = function (clientId: string) {
      const sid = oidcRequestState.getStore()?.sid;
      if (sid) this.sidFor(clientId, sid);
      else if (!this.sidFor(clientId)) this.sidFor(clientId, randomToken(16));
    };
    return provider;
  }
}

/**
 * PKCE (S256) on every authorization request, except for a confidential client registered with
 * `require_pkce: false` whose request is an OpenID Connect one carrying a `nonce` (RFC 9700
 * §2.1.1: the nonce then binds the code to the session). A public client always needs PKCE.
 */
function pkceRequired(ctx: KoaContextWithOIDC, client: InstanceType<Provider['Client']>): boolean {
  if (client.metadata().require_pkce !== false || client.clientAuthMethod === 'none') return true;
  const params = ctx.oidc.params as { nonce?: unknown; scope?: unknown } | undefined;
  const openid = typeof params?.scope === 'string' && params.scope.split(' ').includes('openid');
  return !(openid && typeof params?.nonce === 'string' && params.nonce.length > 0);
}

/**
 * The API a `resource` parameter names (RFC 8707), as oidc-provider's resource server. An API the
 * admin registered (api_resources, matched URL-normalised) gets RFC 9068 JWTs with `aud` = its
 * identifier, its own scopes (what the user granted among them) and its token lifetime: for any
 * admin-created client (a third-party one after the user's consent), for a self-registered client
 * only when the API allows dynamic clients, and without a user (`client_credentials`) only for a
 * first-party client. The earlier rule stays as one case: a first-party client may name an API on
 * one of the project's allowed origins (which only an admin sets), with scopes `profile email`.
 * Anything else is `invalid_target`.
 */
async function resourceServerInfo(
  ctx: KoaContextWithOIDC,
  resource: string,
  client: InstanceType<Provider['Client']>,
  project: ResolvedProject,
  accessTtl: number,
  apiResources: ApiResourcesRepository,
) {
  const { InvalidTarget } = oidcLibrary().errors;
  const metadata = client.metadata();
  const firstParty = metadata.first_party === true;
  const api = await apiResources.findByIdentifier(project.id, resource);
  if (api) {
    if (metadata.self_registered === true && !api.allowDynamicClients) throw new InvalidTarget('this API does not accept self-registered clients');
    const grantType = (ctx.oidc.params as { grant_type?: unknown } | undefined)?.grant_type;
    if (!firstParty && grantType === 'client_credentials') throw new InvalidTarget('a token without a user for this API is for first-party clients only');
    const scope = api.scopes.map((s) => s.name).join(' ');
    return { scope, audience: api.identifier, accessTokenTTL: api.accessTokenTtlSeconds ?? accessTtl, accessTokenFormat: 'jwt' as const, jwt: { sign: { alg: 'ES256' as const } } };
  }
  if (!firstParty) throw new InvalidTarget('the resource is not an API registered in this project');
  let origin: string | null = null;
  try {
    origin = new URL(resource).origin;
  } catch {
    origin = null;
  }
  if (!origin || !project.allowedOrigins.includes(origin)) throw new InvalidTarget("the resource is neither an API registered in this project nor on one of the project's allowed origins");
  return { scope: RESOURCE_SCOPES, accessTokenTTL: accessTtl, accessTokenFormat: 'jwt' as const, jwt: { sign: { alg: 'ES256' as const } } };
}

/**
 * RFC 7591 lets a client register the scopes it will ask for, and an MCP client registers its
 * server's (RFC 9728 `scopes_supported`). A client's `scope` limits only OpenID Connect scopes (an
 * API's scopes are the user's to grant on the consent screen), and the provider refuses any scope
 * it does not know: so the scopes of the project's APIs that accept self-registered clients are
 * taken out of the registered `scope` (`openid` when nothing else is left), and any other unknown
 * scope is still refused (invalid_client_metadata).
 */
async function registrationApiScopes(ctx: KoaContextWithOIDC, projectId: string, apiResources: ApiResourcesRepository): Promise<void> {
  const body = ctx.oidc.body as { scope?: unknown } | undefined;
  if (!body || typeof body.scope !== 'string') return;
  const requested = body.scope.split(' ').filter(Boolean);
  const apiScopes = await apiResources.dynamicClientScopes(projectId);
  const kept = requested.filter((s) => !apiScopes.has(s));
  if (kept.length !== requested.length) body.scope = kept.length ? kept.join(' ') : 'openid';
}

/**
 * The grant an authorization request continues with. A grant belongs to the Gatehouse session
 * that signed the user in: one made under an earlier session is not reused (its tokens may have
 * been taken back with that session); its scopes carry over to a new grant for this session, so
 * the user is not asked again. A first-party client is granted what it asks for without consent.
 */
async function loadExistingGrant(ctx: KoaContextWithOIDC) {
  const oidc = ctx.oidc;
  const client = oidc.client!;
  const session = oidc.session!;
  const account = oidc.account!;
  const state = oidcRequestState.getStore();
  const grantId = (oidc.result?.consent as { grantId?: string } | undefined)?.grantId ?? session.grantIdFor(client.clientId);
  const existing = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
  if (existing && !oidc.result?.login) return existing;
  const firstParty = client.metadata().first_party === true;
  if (!existing && !firstParty) return undefined;
  const grant = new oidc.provider.Grant({ accountId: account.accountId, clientId: client.clientId });
  if (existing) {
    const scope = existing.getOIDCScope();
    if (scope) grant.addOIDCScope(scope);
    const claims = existing.getOIDCClaims();
    if (claims.length) grant.addOIDCClaims(claims);
    for (const [resource, scopes] of Object.entries(existing.resources ?? {})) if (typeof scopes === 'string') grant.addResourceScope(resource, scopes);
  }
  if (firstParty) {
    grant.addOIDCScope([...oidc.requestParamOIDCScopes].join(' '));
    for (const [resource, server] of Object.entries(oidc.resourceServers ?? {})) {
      const allowed = new Set((server.scope ?? '').split(' '));
      const asked = [...oidc.requestParamScopes].filter((s) => allowed.has(s));
      grant.addResourceScope(resource, asked.join(' '));
    }
  }
  if (!state?.sid) return undefined;
  await grant.save();
  return grant;
}

/**
 * The login prompt also asks when the provider session is weaker than the request's `acr_values`
 * (or the client's `default_acr_values`): a password-only session meets no demand for
 * `urn:gatehouse:loa:2`, so the browser goes through the interaction (a sign-in with the second
 * factor, or a step-up), never straight back with a code. `prompt=none` then answers `login_required`.
 */
function interactionPolicy() {
  const { interactionPolicy: ip } = oidcLibrary();
  const policy = ip.base();
  // `prompt=create` (OpenID Connect "Initiating User Registration"): a requestable prompt, asked
  // until the interaction's result answers it (OidcInteractions.complete adds `create`); the
  // hosted page opens on the sign-up form.
  policy.add(new ip.Prompt({ name: 'create', requestable: true }), 0);
  policy.get('login')!.checks.add(
    new ip.Check(
      'acr_values',
      'the requested authentication context class is not met by the session',
      'login_required',
      (ctx) => (acrSatisfies(ctx.oidc.session?.acr, requiredAcr(ctx.oidc.params?.acr_values)) ? ip.Check.NO_NEED_TO_PROMPT : ip.Check.REQUEST_PROMPT),
      (ctx) => ({ acr_values: requiredAcr(ctx.oidc.params?.acr_values) }),
    ),
  );
  return policy;
}

/**
 * The provider's error descriptions that a developer fixes in the client's (or the project's)
 * settings, with the setting named: the description alone says what is wrong, not where to change it.
 */
const SETTING_HINTS: { pattern: RegExp; key: string; text: string }[] = [
  { pattern: /^redirect_uri did not match any of the client's registered redirect_uris/, key: 'redirect_uris', text: "add it to the client's redirect_uris setting (admin API or console)" },
  { pattern: /^post_logout_redirect_uri not registered/, key: 'post_logout_redirect_uris', text: "add it to the client's post_logout_redirect_uris setting (admin API or console)" },
  { pattern: /^requested scope is not allowed/, key: 'scopes', text: "add the scope to the client's scopes setting (admin API or console)" },
  { pattern: /^openid scope must be requested /, key: 'openid', text: "ask for the openid scope, and list openid in the client's scopes setting" },
  { pattern: /^Authorization Server policy requires PKCE /, key: 'require_pkce', text: 'send code_challenge with code_challenge_method S256 (a confidential client may instead be set to require_pkce: false and send a nonce)' },
  { pattern: /^Pushed Authorization Request must be used/, key: 'require_pushed_authorization_requests', text: "push the request to the pushed_authorization_request_endpoint first (the client's or the project's require_pushed_authorization_requests setting)" },
];

/** The description with the setting to change named after it (once). */
export function settingHint(description: string): string {
  const hint = SETTING_HINTS.find(({ pattern }) => pattern.test(description));
  return hint && !description.endsWith(hint.text) ? `${description}: ${hint.text}` : description;
}

/** Which setting the description is about, for the hosted error page (which shows fixed words only, never the description). */
function settingHintKey(description: string): string | null {
  return SETTING_HINTS.find(({ pattern }) => pattern.test(description))?.key ?? null;
}

/** Applies settingHint to the provider's answer: a JSON error body, or an error redirect's query or fragment. */
function withSettingHints(ctx: { body: unknown; status: number; response: { get(field: string): string; set(field: string, value: string): void } }): void {
  const body = ctx.body as { error_description?: unknown } | undefined;
  if (body && typeof body === 'object' && !Buffer.isBuffer(body) && typeof body.error_description === 'string') body.error_description = settingHint(body.error_description);
  const location = ctx.status >= 300 && ctx.status < 400 ? ctx.response.get('Location') : '';
  if (!location || !location.includes('error_description=')) return;
  let target: URL;
  try {
    target = new URL(location);
  } catch {
    return;
  }
  const described = target.searchParams.get('error_description');
  if (described !== null) target.searchParams.set('error_description', settingHint(described));
  const fragment = new URLSearchParams(target.hash.slice(1));
  const inFragment = fragment.get('error_description');
  if (inFragment !== null) {
    fragment.set('error_description', settingHint(inFragment));
    target.hash = fragment.toString();
  }
  ctx.response.set('Location', target.href);
}

/** Errors of self-registered clients that the authorization endpoint shows instead of redirecting (holdErrorRedirect). */
const heldRedirects = new WeakSet<object>();

/**
 * RFC 9700 §4.11.2: anyone can register a client with any https redirect URI, so an error the
 * authorization endpoint finds before a user has signed in (a request without PKCE, a bad scope
 * or response type, `prompt=none` without a session, an interaction aborted before sign-in) would
 * make the sign-in origin an open redirector to it. For a self-registered client such an error is
 * shown (heldErrorPage) with a link the person may follow; an admin-created client keeps the
 * standard redirect, and so does any error once the user has signed in (a consent denied).
 * Runs from the provider's error events, before its handler decides whether to redirect.
 */
function holdErrorRedirect(ctx: KoaContextWithOIDC, err: unknown): void {
  const oidc = ctx?.oidc;
  if (!oidc || (oidc.route !== 'authorization' && oidc.route !== 'resume')) return;
  if (!err || typeof err !== 'object' || (err as { allow_redirect?: boolean }).allow_redirect === false) return;
  if (oidc.client?.metadata().self_registered !== true) return;
  const signedIn = oidc.entities.Account !== undefined || (oidc.route === 'resume' && oidc.session?.accountId !== undefined);
  if (signedIn) return;
  (err as { allow_redirect?: boolean }).allow_redirect = false;
  heldRedirects.add(err);
}

const ERROR_TITLES: Record<string, string> = {
  access_denied: 'Access was denied',
  login_required: 'You need to sign in',
  interaction_required: 'You need to sign in',
  consent_required: 'You need to sign in',
  invalid_client: 'The application is not recognised',
  unauthorized_client: 'The application is not recognised',
  temporarily_unavailable: 'The service is temporarily unavailable',
  server_error: 'Something went wrong',
};

/**
 * The hosted error page of a held error (holdErrorRedirect): the client's name and a link to its
 * redirect URI with the error (what the standard redirect would have sent), which the person may
 * follow or not; 400, under the hosted pages' CSP (no script at all). The name and the link are
 * the client's own choice, so both are escaped, and the link is shown only for a redirect URI the
 * client registered (http or https).
 */
function heldErrorPage(ctx: KoaContextWithOIDC, out: object, projectName: string, authOrigin: string): void {
  const oidc = ctx.oidc;
  const client = oidc.client;
  const params = (oidc.params ?? (ctx.method === 'POST' ? oidc.body : ctx.query) ?? {}) as Record<string, unknown>;
  const redirectUri = typeof params.redirect_uri === 'string' ? params.redirect_uri : null;
  let link: URL | null = null;
  if (client && redirectUri && client.redirectUriAllowed(redirectUri)) {
    const target = new URL(redirectUri);
    if (target.protocol === 'https:' || target.protocol === 'http:') {
      const response = new URLSearchParams();
      for (const [k, v] of Object.entries(out as Record<string, unknown>)) if (typeof v === 'string') response.set(k, v);
      if (params.response_mode === 'fragment') target.hash = response.toString();
      else for (const [k, v] of response) target.searchParams.set(k, v);
      link = target;
    }
  }
  const error = (out as { error?: unknown }).error;
  const code = typeof error === 'string' ? error : 'server_error';
  const title = ERROR_TITLES[code] ?? 'The application sent an invalid request';
  const name = escapeHtml(client?.clientName ?? client?.clientId ?? 'The application');
  const nonce = randomToken(16);
  ctx.status = 400;
  ctx.type = 'html';
  ctx.set('Content-Security-Policy', hostedPagesCsp(nonce, authOrigin));
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cache-Control', 'no-store');
  const back = link
    ? `<p>If you trust it, you can go back to it: <a id="client-link" href="${escapeHtml(link.href)}" rel="noreferrer noopener">Return to ${name}</a> <span class="host">(${escapeHtml(link.host)})</span></p>`
    : '<p>Go back to the application and try again.</p>';
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style nonce="${nonce}">body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1a1b1e;line-height:1.5}.project,.host,.code{color:#495057;font-size:.875rem}a{color:#1864ab}@media (prefers-color-scheme:dark){body{background:#1a1b1e;color:#e9ecef}.project,.host,.code{color:#adb5bd}a{color:#74c0fc}}</style></head>
<body><main><p class="project">${escapeHtml(projectName)}</p><h1>${escapeHtml(title)}</h1>
<p role="alert">The sign-in could not be completed: <strong id="client-name">${name}</strong> sent a request that cannot be accepted.</p>
<p>This application registered itself with this sign-in service, so you are not sent back to it automatically.</p>
${back}
<p class="code">Error code: <code>${escapeHtml(code)}</code></p></main></body></html>`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * RP-initiated logout's confirmation: a plain form (no script), under a strict CSP. The form posts
 * to `end-session/confirm`, which answers 303 to the client's `post_logout_redirect_uri`, and
 * browsers apply `form-action` to that redirect too: so the directive names, besides 'self', exactly
 * the origins of the client's registered post-logout redirect URIs (RP-Initiated Logout 1.0 §3).
 */
function logoutPage(ctx: KoaContextWithOIDC, form: string): void {
  const postLogoutOrigins = new Set<string>();
  for (const uri of ctx.oidc.client?.postLogoutRedirectUris ?? []) {
    try {
      const { protocol, origin } = new URL(uri);
      if (protocol === 'https:' || protocol === 'http:') postLogoutOrigins.add(origin);
    } catch {
      // not a URL: nothing to allow
    }
  }
  const formAction = ["'self'", ...postLogoutOrigins].join(' ');
  ctx.set('Content-Security-Policy', `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`);
  ctx.set('Cache-Control', 'no-store');
  const client = ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId;
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign out</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#1a1b1e}button{font:inherit;padding:.5rem 1rem;margin-right:.5rem;border-radius:.25rem;border:1px solid #1864ab}button[value=yes]{background:#1864ab;color:#fff}@media (prefers-color-scheme:dark){body{background:#1a1b1e;color:#e9ecef}button{background:#25262b;color:#e9ecef}}</style></head>
<body><main><h1>Sign out</h1><p>${client ? `${escapeHtml(client)} asks you to sign out.` : 'Do you want to sign out?'} You will be signed out of this session.</p>
${form.replace(/<script[\s\S]*?<\/script>/gi, '')}<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button><button type="submit" form="op.logoutForm">Stay signed in</button></main></body></html>`;
}
