import { Injectable } from '@nestjs/common';
import type { Interaction, Provider } from 'oidc-provider';
import type { AccessTokenClaims } from '@gatehouse/crypto';
import { randomToken, sha256Hex } from '@gatehouse/crypto';
import {
  ApiResourcesRepository,
  MfaFactorsRepository,
  projectOidcSettings,
  SessionsRepository,
  type RequestMeta,
  type ResolvedProject,
  PasskeysRepository,
} from '@gatehouse/identity';
import { CacheStore, Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import {
  isStale,
  LOA_2,
  maxAgeOf,
  signInAcr,
  signInRefusal,
  switchesAccount,
  type GatehouseCompletion,
} from './oidc-grant-policy';
import { OIDC_SCOPES } from './oidc-provider-configuration';
import { OidcProviders } from './oidc-providers.service';
import { newOidcRequestState, oidcRequestState } from './oidc-request-state';
import { interactionOriginKey, type InteractionOrigin } from './oidc-store';

/** A registered API resource the request names, with the requested scopes of it (for the consent screen's words). */
export interface InteractionResource {
  identifier: string;
  name: string;
  scopes: { name: string; description: string }[];
}

export interface InteractionView {
  uid: string;
  prompt: 'login' | 'consent';
  /** The application asked to create an account (`prompt=create`): the page opens on sign-up. */
  create: boolean;
  client: { client_id: string; name: string; first_party: boolean };
  scopes: string[];
  resources: InteractionResource[];
  expires_at: string;
}

const UID = /^[A-Za-z0-9_-]{1,64}$/;
/** RFC 8176 method references for how the Gatehouse session was signed in. */
const AMR: Record<string, string[]> = {
  password: ['pwd'],
  mfa: ['pwd', 'mfa'],
  passkey: ['hwk', 'user'],
  magic_link: ['otp'],
  oauth: ['fed'],
};

/**
 * The interaction API (docs/api-contract.md §11): an application's login page, or the hosted pages, finish
 * what the provider asked the browser to do (sign in, consent) with the user's Gatehouse session,
 * then send the browser back to the provider with a one-time completion value.
 */
@Injectable()
export class OidcInteractionsService {
  constructor(
    private readonly providers: OidcProviders,
    private readonly cache: CacheStore,
    private readonly clock: Clock,
    private readonly apiResources: ApiResourcesRepository,
    private readonly sessions: SessionsRepository,
    private readonly mfaFactors: MfaFactorsRepository,
    private readonly passkeys: PasskeysRepository,
  ) {}

  async describe(project: ResolvedProject, uid: string): Promise<InteractionView> {
    const { provider, interaction } = await this.load(project, uid);
    const client = await provider.Client.find(String(interaction.params.client_id));
    const { scopes, resources } = await this.grantable(project, interaction);
    return {
      uid: interaction.uid,
      prompt: interaction.prompt.name === 'consent' ? 'consent' : 'login',
      create:
        typeof interaction.params.prompt === 'string' &&
        interaction.params.prompt.split(' ').includes('create'),
      client: {
        client_id: String(interaction.params.client_id),
        name: client?.clientName ?? String(interaction.params.client_id),
        first_party: client?.metadata().first_party === true,
      },
      scopes,
      resources,
      expires_at: new Date(interaction.exp * 1000).toISOString(),
    };
  }

  /** Signs the user in to the provider with their Gatehouse session (and, for a first-party client, grants what it asked). */
  async complete(
    project: ResolvedProject,
    uid: string,
    auth: AccessTokenClaims,
    meta: RequestMeta,
  ): Promise<{ redirect_to: string }> {
    const { provider, interaction } = await this.load(project, uid);
    this.assertOpen(interaction);
    const client = await provider.Client.find(String(interaction.params.client_id));
    const firstParty = client?.metadata().first_party === true;
    if (interaction.prompt.name === 'consent') {
      if (!firstParty)
        throw new ProblemError('conflict', {
          detail:
            "This interaction asks for the user's consent: POST …/consent with the scopes they grant, or …/abort.",
        });
      if (interaction.session?.accountId !== auth.sub)
        throw new ProblemError('forbidden', {
          detail: 'This interaction belongs to another user.',
        });
    }
    const session = await this.sessions.proof(auth.sid);
    this.assertFresh(
      interaction,
      auth,
      session.authTimeMs,
      (await this.origin(uid))?.startedMs ?? interaction.iat * 1000,
    );
    const authMethod = session.authMethod;
    // The class the request asks for (its acr_values, or the client's default_acr_values) is honoured (signInAcr).
    const signIn = signInAcr(authMethod, interaction.params.acr_values);
    const acr = signIn.acr;
    if (!signIn.met) {
      // Without a second factor or a passkey the user cannot meet it: the interaction stays open, so
      // an application's login page may have them set one up and sign in with it; the hosted page
      // ends the request at the client (…/abort).
      if (
        signInRefusal(signIn.required, await this.hasSecondFactor(auth.sub)) === 'no-second-factor'
      ) {
        throw new ProblemError('forbidden', {
          detail: `The application asks for ${LOA_2}, which needs a second factor or a passkey, and this account has neither: set one up and sign in with it, or end the request (POST …/abort).`,
          extensions: { required_acr: LOA_2 },
        });
      }
      throw new ProblemError('reauthentication-required', {
        detail: `The application asks for ${LOA_2}: sign in with a second factor or a passkey (or confirm it's you with one), then complete again.`,
      });
    }
    const result: Record<string, unknown> = {
      login: {
        accountId: auth.sub,
        ts: auth.auth_time ?? auth.iat,
        amr: AMR[authMethod] ?? ['pwd'],
        acr,
        remember: true,
      },
    };
    if (interaction.prompt.name === 'consent')
      result.consent = {
        grantId: await this.grant(project, provider, interaction, auth, null, meta),
      };
    // prompt=create is answered by whoever signed in (or up) here.
    if (interaction.prompt.name === 'create') result.create = {};
    // Another account than the browser's provider session: the resume starts a new provider session for this one.
    const switching = switchesAccount(interaction.session?.accountId, auth.sub);
    if (switching) delete interaction.session;
    return this.finish(interaction, result, auth.sid, switching);
  }

  async consent(
    project: ResolvedProject,
    uid: string,
    auth: AccessTokenClaims,
    scopes: string[],
    meta: RequestMeta,
  ): Promise<{ redirect_to: string }> {
    const { provider, interaction } = await this.load(project, uid);
    this.assertOpen(interaction);
    if (interaction.prompt.name !== 'consent')
      throw new ProblemError('conflict', {
        detail: 'The user has not signed in yet: POST …/complete with their session first.',
      });
    if (interaction.session?.accountId !== auth.sub)
      throw new ProblemError('forbidden', { detail: 'This interaction belongs to another user.' });
    const requested = new Set((await this.grantable(project, interaction)).scopes);
    const unknown = scopes.filter((s) => !requested.has(s));
    if (unknown.length)
      throw ProblemError.validation({
        scopes: [
          `must be a subset of the requested scopes (${[...requested].join(' ')}); not requested: ${unknown.join(' ')}`,
        ],
      });
    const chosen = new Set(scopes);
    if (requested.has('openid')) chosen.add('openid');
    const grantId = await this.grant(project, provider, interaction, auth, chosen, meta);
    return this.finish(interaction, { consent: { grantId } }, auth.sid);
  }

  async abort(project: ResolvedProject, uid: string): Promise<{ redirect_to: string }> {
    const { interaction } = await this.load(project, uid);
    this.assertOpen(interaction);
    return this.finish(
      interaction,
      { error: 'access_denied', error_description: 'End-User aborted interaction' },
      null,
    );
  }

  private async load(
    project: ResolvedProject,
    uid: string,
  ): Promise<{ provider: Provider; interaction: Interaction }> {
    if (!projectOidcSettings(project.settings).enabled)
      throw new ProblemError('not-found', {
        detail: "The project's OpenID Connect provider is off.",
      });
    const unknown = () =>
      new ProblemError('invalid-token', {
        detail: 'The interaction is unknown, finished or expired.',
      });
    if (!UID.test(uid)) throw unknown();
    const { provider } = await this.providers.forProject(project);
    const interaction = await provider.Interaction.find(uid);
    if (!interaction) {
      const owner = (await this.origin(uid))?.projectId;
      if (owner && owner !== project.id)
        throw new ProblemError('not-found', { detail: 'No such interaction in this project.' });
      throw unknown();
    }
    return { provider, interaction };
  }

  private async origin(uid: string): Promise<InteractionOrigin | null> {
    const raw = await this.cache.get(interactionOriginKey(uid));
    return raw ? (JSON.parse(raw) as InteractionOrigin) : null;
  }

  private assertOpen(interaction: Interaction): void {
    if (interaction.result)
      throw new ProblemError('invalid-token', { detail: 'The interaction is already completed.' });
  }

  /** The fresh-session check (isStale): an older session proves itself again first (POST /v1/auth/reauthenticate). */
  private assertFresh(
    interaction: Interaction,
    auth: AccessTokenClaims,
    authTimeMs: number | null,
    startedMs: number,
  ): void {
    const loginPrompt = (interaction.prompt.reasons ?? []).includes('login_prompt');
    if (
      isStale({
        loginPrompt,
        maxAge: maxAgeOf(interaction.params.max_age),
        authTime: auth.auth_time ?? 0,
        authTimeMs,
        startedMs,
        nowMs: this.clock.nowMs(),
      })
    ) {
      throw new ProblemError('reauthentication-required', {
        detail:
          'The application asks for a fresh sign-in: re-authenticate (POST /v1/auth/reauthenticate) and complete again.',
      });
    }
  }

  /**
   * The requested scopes the provider can grant: OpenID Connect's, and those of the registered API
   * resources the request names (`resource`). Any other scope in the request (one an API does not
   * have) would never reach a token, so it is neither shown for consent nor accepted in it.
   */
  private async grantable(
    project: ResolvedProject,
    interaction: Interaction,
  ): Promise<{ scopes: string[]; resources: InteractionResource[] }> {
    const raw = interaction.params.resource;
    const named = (Array.isArray(raw) ? raw : [raw]).filter(
      (r): r is string => typeof r === 'string',
    );
    const requested = requestedScopes(interaction);
    const apiScopes = new Set<string>();
    const resources: InteractionResource[] = [];
    for (const identifier of named) {
      const api = await this.apiResources.findByIdentifier(project.id, identifier);
      if (!api) continue;
      const asked = api.scopes.filter((s) => requested.includes(s.name));
      for (const scope of asked) apiScopes.add(scope.name);
      resources.push({
        identifier: api.identifier,
        name: api.name,
        scopes: asked.map((s) => ({ name: s.name, description: s.description })),
      });
    }
    return {
      scopes: requested.filter((s) => OIDC_SCOPES.includes(s) || apiScopes.has(s)),
      resources,
    };
  }

  /** Whether the user could prove the second level: an enabled second factor or a passkey. */
  private async hasSecondFactor(userId: string): Promise<boolean> {
    return (await this.mfaFactors.hasEnabled(userId)) || (await this.passkeys.hasAny(userId));
  }

  /** Saves a grant of `chosen` (all the requested scopes when null) for the interaction's client, tied to the caller's session. */
  private async grant(
    project: ResolvedProject,
    provider: Provider,
    interaction: Interaction,
    auth: AccessTokenClaims,
    chosen: Set<string> | null,
    meta: RequestMeta,
  ): Promise<string> {
    const state = newOidcRequestState(meta, auth.sid);
    return oidcRequestState.run(state, async () => {
      const existing = interaction.grantId
        ? await provider.Grant.find(interaction.grantId)
        : undefined;
      const grant =
        existing ??
        new provider.Grant({ accountId: auth.sub, clientId: String(interaction.params.client_id) });
      const details = interaction.prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      const allowed = (s: string) => chosen === null || chosen.has(s);
      const missing = details.missingOIDCScope ?? requestedScopes(interaction);
      const scopes = missing.filter(allowed);
      // What the user did not grant is recorded as declined, so the provider does not ask again.
      const declined = missing.filter((s) => !allowed(s));
      if (scopes.length) grant.addOIDCScope(scopes.join(' '));
      if (declined.length) grant.rejectOIDCScope(declined.join(' '));
      if (details.missingOIDCClaims?.length) grant.addOIDCClaims(details.missingOIDCClaims);
      for (const [resource, resourceScopes] of Object.entries(
        details.missingResourceScopes ?? {},
      )) {
        const granted = resourceScopes.filter(allowed);
        if (granted.length) grant.addResourceScope(resource, granted.join(' '));
        if (granted.length < resourceScopes.length)
          grant.rejectResourceScope(resource, resourceScopes.filter((s) => !allowed(s)).join(' '));
      }
      return grant.save();
    });
  }

  private async finish(
    interaction: Interaction,
    result: Record<string, unknown>,
    sid: string | null,
    fresh = false,
  ): Promise<{ redirect_to: string }> {
    const completion = randomToken(32);
    const gatehouse: GatehouseCompletion = {
      sid,
      hash: sha256Hex(completion),
      ...(fresh ? { fresh: true } : {}),
    };
    interaction.result = { ...result, gatehouse };
    const ttl = Math.max(1, interaction.exp - Math.floor(this.clock.nowMs() / 1000));
    await interaction.save(ttl);
    const target = new URL(interaction.returnTo);
    target.searchParams.set('completion', completion);
    return { redirect_to: target.href };
  }
}

function requestedScopes(interaction: Interaction): string[] {
  const scope = interaction.params.scope;
  return typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [];
}
