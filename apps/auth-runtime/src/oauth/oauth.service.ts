import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { decryptSecretString, encryptSecret, randomToken, sha256Hex } from '@gatehouse/crypto';
import type { OAuthTransaction } from '@gatehouse/entities';
import { ProjectsCache, type RequestMeta, type ResolvedProject } from '@gatehouse/identity';
import { outboundTarget } from '@gatehouse/outbound';
import { CacheStore, Clock } from '@gatehouse/platform';
import { ProblemError, type FieldErrors } from '@gatehouse/problem-details';
import { UserEvents } from '../sign-in/user-events';
import { SignInCompletionService } from '../sign-in/sign-in-completion.service';
import { matchRedirectUrl, withQuery } from '../common/redirect-urls';
import type { IssuedSession } from '../sessions/sessions.service';
import { appleClientSecret } from './apple-client-secret';
import { IdTokenVerifier } from './id-token.verifier';
import { OAuthAccountsService } from './oauth-accounts.service';
import { OAuthFailure, type OAuthErrorCode } from './oauth-failure';
import { OAuthTransactionsRepository } from './oauth-transactions.repository';
import { isOAuthProvider, readProviderSettings, type ProviderSettings } from './provider-config';
import { providerRequest, type CallbackGuard } from './provider-http';
import { identityFromClaims, identityFromGitHub, type ProviderIdentity } from './provider-identity';
import { ProviderKeysService } from './provider-keys.service';
import type { GitHubProfileDocuments } from './strategies/github.strategy';
import { createProviderStrategy } from './strategies/strategy-factory';
import type { ProviderVerify, StrategyInput } from './strategies/strategy-input';
import { StrategyRun } from './strategies/strategy-run';
import { TransactionStateStore } from './strategies/transaction-state.store';

/** How long a user has between authorize and callback. */
export const OAUTH_TRANSACTION_TTL_MS = 10 * 60_000;
/** Expired transactions are kept this long (so a late replay still reads `invalid_state`), then purged. */
const PURGE_AFTER_MS = 24 * 3600_000;
const PURGE_EVERY_MS = 10 * 60_000;
const PURGE_LOCK_KEY = 'oauth:transactions:purge';
const MAX_REDIRECT_URL_LENGTH = 2048;
const STATE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** Provider `error` values meaning the user said no (Apple has its own). */
const USER_DECLINED_ERRORS = new Set(['access_denied', 'user_cancelled_authorize']);

interface Endpoints {
  authorizationUrl: string;
  tokenUrl: string;
  userinfoUrl: string | null;
  jwksUrl: string | null;
  emailsUrl: string | null;
}

export type { OAuthErrorCode } from './oauth-failure';

export interface CallbackParams {
  state: string | null;
  code: string | null;
  error: string | null;
}

export interface AuthorizeResult {
  location: string;
  binding: string;
}

export interface CallbackResult {
  location: string;
  /** Set only when the sign-in ended with a session (not on errors, not on an MFA challenge). */
  session: IssuedSession | null;
}

const verifierAad = (stateHash: string) => `oauth-tx:${stateHash}`;

/**
 * Social sign-in (spec "OAuth endpoints", docs/api-contract.md §5/§10): authorize stores state + PKCE verifier
 * + nonce server-side, bound to the browser; the callback verifies and consumes the state, runs
 * the provider's passport strategy (code exchange with the verifier, ID token or GitHub profile),
 * then finds, links or creates the user and ends in SignInCompletionService.
 */
@Injectable()
export class OAuthService {
  private readonly logger = new Logger('OAuth');

  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: OAuthTransactionsRepository,
    private readonly accounts: OAuthAccountsService,
    private readonly completion: SignInCompletionService,
    private readonly userEvents: UserEvents,
    private readonly projects: ProjectsCache,
    private readonly keys: ProviderKeysService,
    private readonly idTokens: IdTokenVerifier,
    private readonly cache: CacheStore,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get callbackUrl(): string {
    return `${this.config.http.publicAuthUrl}/v1/auth/oauth/callback`;
  }

  private get runDeadlineMs(): number {
    // token exchange, profile, emails and keys: each bounded by OAUTH_TIMEOUT_MS
    return this.config.oauth.timeoutMs * 4 + 1000;
  }

  // ---------------------------------------------------------------- authorize

  async authorize(
    project: ResolvedProject,
    providerParam: string,
    redirectUrl: unknown,
    presentedBinding: string | null,
  ): Promise<AuthorizeResult> {
    const errors: FieldErrors = {};
    let settings: ProviderSettings | null = null;
    if (!isOAuthProvider(providerParam))
      errors.provider = ['must be one of google, github, microsoft, apple'];
    else {
      const read = readProviderSettings(this.config, project, providerParam);
      if (read.ok) settings = read.settings;
      else errors.provider = [read.problem];
    }
    let target: string | null = null;
    if (redirectUrl === undefined || redirectUrl === '') errors.redirect_url = ['is required'];
    else if (typeof redirectUrl !== 'string') errors.redirect_url = ['must be a single URL'];
    else {
      target =
        redirectUrl.length <= MAX_REDIRECT_URL_LENGTH
          ? matchRedirectUrl(project, redirectUrl, this.config.http.publicAuthUrl)
          : null;
      if (!target) errors.redirect_url = ["must be one of the project's registered redirect URLs"];
    }
    if (!settings || !target)
      throw ProblemError.validation(errors, 'The authorization request is invalid.');

    await this.purgeOccasionally();
    let endpoints: Endpoints;
    try {
      endpoints = await this.endpointsOf(settings);
    } catch {
      throw new ProblemError('service-unavailable', {
        detail: 'The identity provider cannot be reached; try again shortly.',
      });
    }

    const chosen = settings;
    const redirectTarget = target;
    const binding = presentedBinding ?? randomToken(32);
    const nonce = settings.kind === 'oidc' ? randomToken(32) : null;
    const run = new StrategyRun<never>(this.runDeadlineMs);
    const store = new TransactionStateStore(run, {
      persist: async (codeVerifier) => {
        const state = randomToken(32);
        const stateHash = sha256Hex(state);
        await this.transactions.create({
          tenantId: project.tenantId,
          projectId: project.id,
          provider: chosen.provider,
          stateHash,
          browserBindingHash: sha256Hex(binding),
          codeVerifierEncrypted: encryptSecret(
            this.config.auth.encryptionKey,
            codeVerifier,
            verifierAad(stateHash),
          ),
          nonce,
          redirectUrl: redirectTarget,
          expiresAt: new Date(this.clock.nowMs() + OAUTH_TRANSACTION_TTL_MS),
        });
        return state;
      },
    });
    const never: ProviderVerify = (_a, _r, _p, _profile, done) =>
      done(new Error('no verification during authorize'));
    const strategy = createProviderStrategy(
      this.strategyInput(settings, endpoints, store, run, never),
    );
    const outcome = await run.start(strategy, { query: {}, body: {} }, nonce ? { nonce } : {});
    if (outcome.kind === 'redirect') return { location: outcome.url, binding };
    if (outcome.kind === 'error') throw outcome.error;
    throw new Error(`authorize ended with ${outcome.kind}`);
  }

  /** One instance at a time, every ten minutes, deletes long-expired transactions. */
  private async purgeOccasionally(): Promise<void> {
    try {
      if (!(await this.cache.setIfAbsent(PURGE_LOCK_KEY, '1', PURGE_EVERY_MS))) return;
      await this.transactions.purgeExpired(new Date(this.clock.nowMs() - PURGE_AFTER_MS));
    } catch (err) {
      this.logger.warn(
        `purging expired OAuth transactions failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  // ---------------------------------------------------------------- callback

  async callback(
    params: CallbackParams,
    presentedBinding: string | null,
    meta: RequestMeta,
  ): Promise<CallbackResult> {
    const unknownState = () =>
      new ProblemError('invalid-token', { detail: 'The state is unknown.' });
    if (!params.state || !STATE_PATTERN.test(params.state)) throw unknownState();
    const stateHash = sha256Hex(params.state);
    const issued = await this.transactions.findByStateHash(stateHash);
    if (!issued) throw unknownState();
    const project = await this.projects.byId(issued.projectId);
    // The stored target was registered at authorize time; if the project dropped it since, we
    // no longer send anyone there.
    const target = project
      ? matchRedirectUrl(project, issued.redirectUrl, this.config.http.publicAuthUrl)
      : null;
    if (!project || !target) throw unknownState();

    const failWith = async (
      code: OAuthErrorCode,
      userId: string | null,
    ): Promise<CallbackResult> => {
      await this.recordFailure(project, issued.provider, code, userId, meta);
      return { location: withQuery(target, { error: code }), session: null };
    };

    const tx = presentedBinding
      ? await this.transactions.consume(stateHash, sha256Hex(presentedBinding), this.clock.now())
      : null;
    if (!tx) return failWith('invalid_state', null);

    let userId: string | null = null;
    try {
      if (params.error !== null) {
        const declined = USER_DECLINED_ERRORS.has(params.error);
        throw new OAuthFailure(
          declined ? 'access_denied' : 'provider_error',
          `the provider answered ${params.error.slice(0, 64)}`,
        );
      }
      if (!params.code) throw new OAuthFailure('provider_error', 'the provider sent no code');
      const identity = await this.exchange(project, tx, params.code);
      const user = await this.accounts.resolveUser(project, identity, meta);
      userId = user.id;
      const outcome = await this.completion.complete(project, user, meta, 'oauth');
      if (outcome.kind === 'mfa') {
        return {
          location: withQuery(target, {
            mfa_required: 'true',
            mfa_token: outcome.challenge.mfa_token,
          }),
          session: null,
        };
      }
      return { location: target, session: outcome.session };
    } catch (err) {
      if (err instanceof OAuthFailure) {
        this.logger.log(
          `OAuth ${tx.provider} sign-in failed for project ${project.id}: ${err.code} (${err.message})`,
        );
        return failWith(err.code, userId);
      }
      this.logger.error(
        `OAuth ${tx.provider} callback failed for project ${project.id}: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`,
      );
      return failWith('server_error', userId);
    }
  }

  /** Recorded with docs/api-contract.md §13's reason word (`disabled`, else `invalid_credentials`) and the callback's code as `error`. */
  private async recordFailure(
    project: ResolvedProject,
    provider: string,
    error: OAuthErrorCode,
    userId: string | null,
    meta: RequestMeta,
  ): Promise<void> {
    const reason = error === 'account_disabled' ? 'disabled' : 'invalid_credentials';
    try {
      await this.dataSource.transaction((manager) =>
        this.userEvents.signInFailed(manager, project, {
          userId,
          meta,
          data: { method: 'oauth', provider, reason, error },
        }),
      );
    } catch (err) {
      this.logger.warn(
        `recording an OAuth failure failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  // ---------------------------------------------------------------- provider exchange

  /** Runs the provider's strategy on the callback: code + PKCE verifier → tokens → identity. */
  private async exchange(
    project: ResolvedProject,
    tx: OAuthTransaction,
    code: string,
  ): Promise<ProviderIdentity> {
    const provider = tx.provider;
    if (!isOAuthProvider(provider))
      throw new OAuthFailure('provider_error', 'unknown provider in transaction');
    const read = readProviderSettings(this.config, project, provider);
    if (!read.ok) throw new OAuthFailure('provider_error', `provider ${read.problem}`);
    const settings = read.settings;
    let endpoints: Endpoints;
    try {
      endpoints = await this.endpointsOf(settings);
    } catch (err) {
      throw new OAuthFailure('provider_error', `discovery failed: ${describe(err)}`);
    }
    const codeVerifier = decryptSecretString(
      this.config.auth.encryptionKey,
      tx.codeVerifierEncrypted,
      verifierAad(tx.stateHash),
    );

    const run = new StrategyRun<ProviderIdentity>(this.runDeadlineMs);
    const store = new TransactionStateStore(run, { codeVerifier });
    const verify: ProviderVerify = (accessToken, _refreshToken, tokenParams, profile, done) => {
      this.identityOf(settings, endpoints, tx, accessToken, tokenParams, profile).then(
        (identity) => run.run(() => done(null, identity)),
        (err: unknown) => run.run(() => done(err)),
      );
    };
    const strategy = createProviderStrategy(
      this.strategyInput(settings, endpoints, store, run, verify),
    );
    const outcome = await run.start(strategy, { query: { code, state: 'verified' }, body: {} }, {});
    if (outcome.kind === 'success') return outcome.user;
    throw new OAuthFailure(
      'provider_error',
      outcome.kind === 'error' ? describe(outcome.error) : `strategy ended with ${outcome.kind}`,
    );
  }

  private async identityOf(
    settings: ProviderSettings,
    endpoints: Endpoints,
    tx: OAuthTransaction,
    accessToken: string,
    tokenParams: object,
    profile: unknown,
  ): Promise<ProviderIdentity> {
    if (settings.kind === 'github') return identityFromGitHub(profile as GitHubProfileDocuments);
    if (!settings.issuer || !endpoints.jwksUrl)
      throw new Error('OpenID Connect provider without issuer or keys');
    const claims = await this.idTokens.verify((tokenParams as { id_token?: unknown }).id_token, {
      issuer: settings.issuer,
      issuerAliases: settings.issuerAliases,
      clientId: settings.clientId,
      nonce: tx.nonce,
      jwksUrl: endpoints.jwksUrl,
    });
    let userinfo: unknown = null;
    if (settings.provider === 'google')
      userinfo = (profile as { _json?: unknown } | undefined)?._json ?? null;
    else if (claims.email === undefined && endpoints.userinfoUrl) {
      const res = await providerRequest(
        endpoints.userinfoUrl,
        { headers: { Authorization: `Bearer ${accessToken}` } },
        this.config.oauth,
      );
      if (res.status < 200 || res.status > 299) throw new Error(`userinfo answered ${res.status}`);
      userinfo = JSON.parse(res.body) as unknown;
    }
    return identityFromClaims(settings.provider, claims, userinfo);
  }

  /** Endpoint URLs from the settings, the provider's defaults, or (overridden issuer) its discovery document. */
  private async endpointsOf(settings: ProviderSettings): Promise<Endpoints> {
    let { authorizationUrl, tokenUrl, userinfoUrl, jwksUrl } = settings;
    if (
      settings.kind === 'oidc' &&
      settings.issuer &&
      (!authorizationUrl || !tokenUrl || !jwksUrl)
    ) {
      const doc = await this.keys.discover(settings.issuer);
      authorizationUrl ??= doc.authorization_endpoint ?? null;
      tokenUrl ??= doc.token_endpoint ?? null;
      userinfoUrl ??= doc.userinfo_endpoint ?? null;
      jwksUrl ??= doc.jwks_uri ?? null;
    }
    if (!authorizationUrl || !tokenUrl || (settings.kind === 'oidc' && !jwksUrl))
      throw new Error('provider endpoints unknown');
    // The endpoints this server calls (not the authorization URL: only browsers go there), from
    // the settings or the discovery document, fail here when OAUTH_ALLOW_PRIVATE_URLS refuses them
    // outright (scheme, literal address, blocked name), before the user is sent to the provider;
    // names are judged again on their resolved addresses when each call connects.
    for (const url of [tokenUrl, userinfoUrl, jwksUrl, settings.emailsUrl])
      if (url) outboundTarget(url, this.config.oauth.allowPrivateUrls);
    return { authorizationUrl, tokenUrl, userinfoUrl, jwksUrl, emailsUrl: settings.emailsUrl };
  }

  private strategyInput(
    settings: ProviderSettings,
    endpoints: Endpoints,
    store: TransactionStateStore,
    guard: CallbackGuard,
    verify: ProviderVerify,
  ): StrategyInput {
    const clientSecret = settings.apple
      ? appleClientSecret(
          settings.apple,
          settings.clientId,
          settings.issuer ?? 'https://appleid.apple.com',
          Math.floor(this.clock.nowMs() / 1000),
        )
      : (settings.clientSecret ?? '');
    return {
      provider: settings.provider,
      clientId: settings.clientId,
      clientSecret,
      authorizationUrl: endpoints.authorizationUrl,
      tokenUrl: endpoints.tokenUrl,
      userinfoUrl: endpoints.userinfoUrl,
      emailsUrl: endpoints.emailsUrl,
      scopes: settings.scopes,
      callbackUrl: this.callbackUrl,
      store,
      guard,
      calls: this.config.oauth,
      verify,
    };
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}`.slice(0, 300) : 'unknown error';
}
