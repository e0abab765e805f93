import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Account, Configuration, KoaContextWithOIDC, Provider } from 'oidc-provider';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { isId } from '@gatehouse/entities';
import { hmacSha256, randomToken, safeEqual, sha256Hex } from '@gatehouse/crypto';
import {
  accessTokenTtl,
  ApiResourcesRepository,
  newOAuthClientId,
  newOAuthClientSecret,
  projectOidcSettings,
  renderTokenClaims,
  UsersRepository,
  validTokenClaims,
  type ResolvedProject,
} from '@gatehouse/identity';
import { OrganizationMembersRepository } from '@gatehouse/organizations';
import { BackgroundTasks } from '../common/background-tasks';
import { OAuthGrantsRepository, type OidcUserRow } from './oauth-grants.repository';
import { holdErrorRedirect, renderError, withSettingHints } from './oidc-error-pages';
import { loadExistingGrant } from './oidc-grant-loader';
import {
  ACR_VALUES,
  clientSid,
  postLogoutRedirect,
  providerSessionMeetsAcr,
  requiredAcr,
} from './oidc-grant-policy';
import { oidcLibrary, providerRequestContext } from './oidc-library';
import { logoutPage } from './oidc-logout-page';
import { oidcRequestState, requestMetaOfState } from './oidc-request-state';
import { OidcStore } from './oidc-store';

export const OIDC_SCOPES = ['openid', 'offline_access', 'profile', 'email', 'organizations'];
/** Scopes an access token for an API on an allowed origin (RFC 8707 `resource`, not a registered API resource) may carry. */
const RESOURCE_SCOPES = 'profile email';

/** The routes under the issuer; every URL is whatever discovery says (docs/api-contract.md §11). */
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

export function issuerOf(config: AppConfig, projectId: string): string {
  return `${config.http.publicAuthUrl.replace(/\/+$/, '')}/v1/projects/${projectId}`;
}

/** Where the provider sends the browser for an interaction: the project's login page, or the hosted page. */
export function interactionUrl(config: AppConfig, project: ResolvedProject, uid: string): string {
  const target = new URL(
    projectOidcSettings(project.settings).login_url ??
      `${issuerOf(config, project.id)}/pages/sign-in`,
  );
  target.searchParams.set('interaction', uid);
  return target.href;
}

function userClaims(user: OidcUserRow) {
  return {
    email: user.email,
    email_verified: user.email_verified,
    preferred_username: user.username ?? user.email,
  };
}

/**
 * A project's oidc-provider instance, configured (its issuer is the project's). Configuration
 * follows docs/api-contract.md §11 and the OAuth 2.0 Security BCP: code flow only, PKCE S256 for every client,
 * exact redirect URIs, rotating refresh tokens whose reuse revokes the grant, `iss` in every
 * authorization response. The rules it applies are oidc-grant-policy.ts's; the hooks here only
 * read their inputs (from the library's context, the request state or a repository).
 */
@Injectable()
export class OidcProviderConfiguration {
  private readonly logger = new Logger('OidcProvider');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly store: OidcStore,
    private readonly grants: OAuthGrantsRepository,
    private readonly users: UsersRepository,
    private readonly tasks: BackgroundTasks,
    private readonly apiResources: ApiResourcesRepository,
    private readonly members: OrganizationMembersRepository,
  ) {}

  provider(project: ResolvedProject, keys: NonNullable<Configuration['jwks']>['keys']): Provider {
    const { Provider: ProviderClass } = oidcLibrary();
    const issuer = issuerOf(this.config, project.id);
    const settings = projectOidcSettings(project.settings);
    const accessTtl = accessTokenTtl(project.settings.access_token_ttl_seconds);
    const cookieKey = hmacSha256(
      this.config.auth.encryptionKey,
      `oidc-cookies:${project.id}`,
    ).toString('base64url');
    const apiResources = this.apiResources;
    // The user a grant or session check of this request already read, else the users table's owner.
    const findUser = async (userId: string): Promise<OidcUserRow | null> =>
      oidcRequestState.getStore()?.users.get(userId) ??
      (await this.users.activeClaimsUser(project.id, userId));

    const customClaims = validTokenClaims(project.settings.token_claims);
    const configuration: Configuration = {
      adapter: this.store.adapterFor(project),
      jwks: { keys },
      routes: OIDC_ROUTES,
      scopes: OIDC_SCOPES,
      // `auth_time` is a claim of the `openid` scope: in every ID token (docs/api-contract.md §11), not only when `max_age` asks for it.
      claims: {
        sid: null,
        iss: null,
        openid: ['sub', 'acr', 'amr', 'auth_time'],
        email: ['email', 'email_verified'],
        // docs/api-contract.md §14: the project's custom claims come with the profile scope.
        profile: ['preferred_username', ...Object.keys(customClaims)],
        // docs/api-contract.md §14: the user's memberships of the project's organizations.
        organizations: ['organizations'],
      },
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
          if (
            key === 'first_party' &&
            value !== undefined &&
            value !== false &&
            ctx?.oidc?.route === 'registration'
          ) {
            throw new (oidcLibrary().errors.InvalidClientMetadata)(
              'first_party is set by an administrator, not by registration',
            );
          }
          if (
            key === 'self_registered' &&
            value !== undefined &&
            ctx?.oidc?.route === 'registration'
          ) {
            throw new (oidcLibrary().errors.InvalidClientMetadata)(
              'self_registered is not client metadata',
            );
          }
          if (
            key === 'require_pkce' &&
            value !== undefined &&
            ctx?.oidc?.route === 'registration'
          ) {
            throw new (oidcLibrary().errors.InvalidClientMetadata)(
              'require_pkce is set by an administrator: a registered client always uses PKCE',
            );
          }
        },
      },
      clientDefaults: {
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        id_token_signed_response_alg: 'RS256',
      },
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
        names: {
          session: 'gh_oidc_session',
          interaction: 'gh_oidc_interaction',
          resume: 'gh_oidc_resume',
        },
        long: {
          signed: true,
          httpOnly: true,
          sameSite: 'lax',
          secure: issuer.startsWith('https:'),
        },
        short: {
          signed: true,
          httpOnly: true,
          sameSite: 'lax',
          secure: issuer.startsWith('https:'),
        },
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
        introspection: {
          enabled: true,
          allowedPolicy: (_ctx, client, token) =>
            (token as { clientId?: string }).clientId === client.clientId,
        },
        userinfo: { enabled: true },
        clientCredentials: { enabled: true },
        // RFC 9126: `{issuer}/request`, then `request_uri` at the authorization endpoint; required
        // for every client when the project says so, or for a client registered with
        // `require_pushed_authorization_requests`.
        pushedAuthorizationRequests: {
          enabled: true,
          requirePushedAuthorizationRequests: settings.require_pushed_authorization_requests,
          allowUnregisteredRedirectUris: false,
        },
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
          defaultResource: (_ctx, _client, oneOf) => oneOf ?? undefined,
          useGrantedResource: () => true,
          // RFC 8707 `resource` → an RFC 9068 JWT access token for that API, only for an API the admin
          // named (resourceServerInfo): no client can mint a signed token that an API of the project,
          // or anyone else's, accepts.
          getResourceServerInfo: (ctx, resource, client) =>
            resourceServerInfo(ctx, resource, client, project, accessTtl, apiResources),
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
      interactions: {
        policy: interactionPolicy(),
        url: (_ctx, interaction) => interactionUrl(this.config, project, interaction.uid),
      },
      issueRefreshToken: (_ctx, client, code) =>
        client.grantTypeAllowed('refresh_token') &&
        (code.scopes.has('offline_access') || client.metadata().first_party === true),
      loadExistingGrant: (ctx) =>
        loadExistingGrant(ctx, (grantId, organizationId) =>
          this.store.nameOrganization(project.id, grantId, organizationId),
        ),
      // docs/api-contract.md §14: `organization=<id>` of a member sets the access tokens' `org`, read
      // with the grant at every issue (a membership ended or changed reaches the next refresh).
      extraParams: {
        organization: (_ctx, value) => {
          if (value !== undefined && !isId(value))
            throw new (oidcLibrary().errors.InvalidRequest)(
              'organization must be the id of an organization of the user',
            );
        },
      },
      extraTokenClaims: async (_ctx, token) => {
        const grantId = 'grantId' in token ? token.grantId : undefined;
        if (typeof grantId !== 'string') return undefined;
        const org = (await this.store.grantUser(project.id, grantId))?.org;
        return org ? { org } : undefined;
      },
      findAccount: async (_ctx, sub): Promise<Account | undefined> => {
        const user = await findUser(sub);
        if (!user) return undefined;
        const members = this.members;
        return {
          accountId: user.id,
          // `organizations` and the custom claims are read only when their scope asks (no query otherwise).
          claims: async (_use, scope) => ({
            ...(Object.keys(customClaims).length && scope.split(' ').includes('profile')
              ? renderTokenClaims(
                  customClaims,
                  await this.users.claimSources(project.id, user.id, null),
                )
              : {}),
            sub: user.id,
            ...userClaims(user),
            ...(scope.split(' ').includes('organizations')
              ? {
                  organizations: (await members.claimsOfUser(project.id, user.id)).map((o) => ({
                    id: o.id,
                    slug: o.slug,
                    role: o.role,
                  })),
                }
              : {}),
          }),
        };
      },
      renderError: (ctx, out, err) =>
        renderError(ctx, out, err, {
          issuer,
          projectName: project.name,
          authOrigin: new URL(this.config.http.publicAuthUrl).origin,
        }),
      clientBasedCORS: (_ctx, origin, client) =>
        client.redirectUris?.some((uri) => new URL(uri).origin === origin) ?? false,
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
    provider.on('authorization.error', (ctx: KoaContextWithOIDC, err: Error) =>
      holdErrorRedirect(ctx, err),
    );
    provider.on(
      'grant.error',
      (ctx: KoaContextWithOIDC, err: { error?: string; error_description?: string }) => {
        const params = ctx.oidc.params as { grant_type?: unknown } | undefined;
        const failure = {
          clientId: ctx.oidc.client?.clientId ?? null,
          grantType:
            typeof params?.grant_type === 'string' ? params.grant_type.slice(0, 100) : null,
          error: String(err.error ?? 'server_error'),
          description:
            typeof err.error_description === 'string' ? err.error_description.slice(0, 200) : null,
        };
        this.tasks.run('oauth_token.failed', () =>
          this.grants.recordTokenFailure(
            project.tenantId,
            project.id,
            failure,
            requestMetaOfState(),
          ),
        );
      },
    );
    replaceLibraryMethods(provider);
    return provider;
  }
}

/**
 * The library's methods Gatehouse replaces on a provider's own classes (each provider has its own
 * `Client` and `Session`, so no other project's is touched), for what no option of oidc-provider
 * decides; each applies a rule of oidc-grant-policy.ts or the secrets' storage.
 */
function replaceLibraryMethods(provider: Provider): void {
  // Client secrets are stored as SHA-256 (oidcClientMetadata): the library would compare the
  // presented secret with the stored value itself. Compare its hash, in constant time.
  provider.Client.prototype.compareClientSecret = function (
    this: { clientSecret?: string },
    actual: string,
  ) {
    return Promise.resolve(
      typeof this.clientSecret === 'string' && safeEqual(sha256Hex(actual), this.clientSecret),
    );
  };
  // postLogoutRedirect (policy): a self-registered client's post-logout redirect needs a valid
  // `id_token_hint`, which the provider has checked by now; the library has no option for it, and
  // asks the client only whether the URI is registered. The hint is read from the library's own
  // request context; `signed-out-page` drops the URI, so the logout ends on the signed-out page.
  const registered = provider.Client.prototype.postLogoutRedirectUriAllowed;
  provider.Client.prototype.postLogoutRedirectUriAllowed = function (
    this: InstanceType<Provider['Client']>,
    value: string,
  ) {
    const ctx = providerRequestContext();
    const params = ctx?.oidc?.params;
    const decision = postLogoutRedirect({
      registered: registered.call(this, value),
      selfRegistered: this.metadata().self_registered === true,
      idTokenHint: params ? ctx.oidc.entities.IdTokenHint !== undefined : null,
    });
    if (decision === 'signed-out-page') params!.post_logout_redirect_uri = undefined;
    return decision !== 'refused';
  };
  // Every ID token carries `sid` (the library includes it only for back-channel logout clients),
  // and it is the Gatehouse session that signed the user in (clientSid), which the library's
  // session knows nothing of: it comes from the request state.
  provider.Client.prototype.includeSid = () => true;
  const session = provider.Session.prototype as unknown as {
    ensureClientContainer(clientId: string): void;
    sidFor(clientId: string, value?: string): string | undefined;
  };
  session.ensureClientContainer = function (clientId: string) {
    this.sidFor(
      clientId,
      clientSid(oidcRequestState.getStore()?.sid ?? null, this.sidFor(clientId), () =>
        randomToken(16),
      ),
    );
  };
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
    if (metadata.self_registered === true && !api.allowDynamicClients)
      throw new InvalidTarget('this API does not accept self-registered clients');
    const grantType = (ctx.oidc.params as { grant_type?: unknown } | undefined)?.grant_type;
    if (!firstParty && grantType === 'client_credentials')
      throw new InvalidTarget(
        'a token without a user for this API is for first-party clients only',
      );
    const scope = api.scopes.map((s) => s.name).join(' ');
    return {
      scope,
      audience: api.identifier,
      accessTokenTTL: api.accessTokenTtlSeconds ?? accessTtl,
      accessTokenFormat: 'jwt' as const,
      jwt: { sign: { alg: 'ES256' as const } },
    };
  }
  if (!firstParty) throw new InvalidTarget('the resource is not an API registered in this project');
  let origin: string | null = null;
  try {
    origin = new URL(resource).origin;
  } catch {
    origin = null;
  }
  if (!origin || !project.allowedOrigins.includes(origin))
    throw new InvalidTarget(
      "the resource is neither an API registered in this project nor on one of the project's allowed origins",
    );
  return {
    scope: RESOURCE_SCOPES,
    accessTokenTTL: accessTtl,
    accessTokenFormat: 'jwt' as const,
    jwt: { sign: { alg: 'ES256' as const } },
  };
}

/**
 * RFC 7591 lets a client register the scopes it will ask for, and an MCP client registers its
 * server's (RFC 9728 `scopes_supported`). A client's `scope` limits only OpenID Connect scopes (an
 * API's scopes are the user's to grant on the consent screen), and the provider refuses any scope
 * it does not know: so the scopes of the project's APIs that accept self-registered clients are
 * taken out of the registered `scope` (`openid` when nothing else is left), and any other unknown
 * scope is still refused (invalid_client_metadata).
 */
async function registrationApiScopes(
  ctx: KoaContextWithOIDC,
  projectId: string,
  apiResources: ApiResourcesRepository,
): Promise<void> {
  const body = ctx.oidc.body as { scope?: unknown } | undefined;
  if (!body || typeof body.scope !== 'string') return;
  const requested = body.scope.split(' ').filter(Boolean);
  const apiScopes = await apiResources.dynamicClientScopes(projectId);
  const kept = requested.filter((s) => !apiScopes.has(s));
  if (kept.length !== requested.length) body.scope = kept.length ? kept.join(' ') : 'openid';
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
      (ctx) =>
        providerSessionMeetsAcr(ctx.oidc.session?.acr, ctx.oidc.params?.acr_values)
          ? ip.Check.NO_NEED_TO_PROMPT
          : ip.Check.REQUEST_PROMPT,
      (ctx) => ({ acr_values: requiredAcr(ctx.oidc.params?.acr_values) }),
    ),
  );
  return policy;
}
