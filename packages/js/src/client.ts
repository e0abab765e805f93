import type { components } from './schema';
import { GatehouseError } from './errors';
import { browserTabs, type Tabs } from './tabs';
import { TokenKeeper, type HeldToken, type TokenOrganization } from './token-keeper';
import { Transport, type TransportOptions } from './transport';

type Schemas = components['schemas'];
export type SignUpInput = Schemas['SignUpDto'];
export type SessionInfo = Schemas['SessionResponse'];
export type Passkey = Schemas['PasskeyResponse'];
export type TotpSetup = Schemas['TotpSetupResponse'];
export type Me = Schemas['MeResponse'];
export type MfaFactor = Schemas['MfaVerifyDto']['factor'];
/** One of the user's organizations (`GET /v1/auth/organizations`): `{id, name, slug, role, permissions}`. */
export type Organization = Schemas['MyOrganization'];
export type OrganizationMember = Schemas['MyMemberResponse'];
export type OrganizationMemberList = Schemas['MyMemberListResponse'];
export type CreateOrganizationInput = Schemas['CreateMyOrganizationDto'];
export type UpdateOrganizationInput = Schemas['UpdateMyOrganizationDto'];
export type InviteMemberInput = Schemas['InviteMemberDto'];
export type OrganizationSuggestion = Schemas['OrganizationSuggestion'];
export type SsoConnection = NonNullable<Schemas['SsoDiscoverResponse']['connection']>;
export type OrganizationInvitation = Schemas['InvitationResponse'];
/** The session's active organization as the access token says it (`org` claim): `{id, slug, role, permissions}`. */
export type ActiveOrganization = TokenOrganization;
/** What `has` checks: a permission the active organization's role grants, or the role itself. */
export type OrganizationRequirement = { permission: string } | { role: string };

/**
 * Whether the active organization (the token's `org` claim) grants `requirement`: false without
 * an active organization. The claim's `permissions` are the whole grant (admin's list every
 * permission); no wildcard. A UI check only: your API checks the token itself
 * (`@gatehouse/server`'s `has`).
 */
export function hasPermission(
  organization: ActiveOrganization | null | undefined,
  requirement: OrganizationRequirement,
): boolean {
  if (!organization) return false;
  return 'permission' in requirement
    ? organization.permissions.includes(requirement.permission)
    : organization.role === requirement.role;
}

export interface GatehouseOptions extends TransportOptions {
  /** Renew the access token this many seconds before it expires (and at 80 % of its lifetime if that is earlier); default 60. */
  renewBeforeSeconds?: number;
  /** Coordinate renewal with the origin's other tabs (Web Locks + BroadcastChannel); default true in browsers (where there is a `document`). */
  crossTab?: boolean;
  /** For tests: the tabs' coordination (locks and channel). */
  tabs?: Tabs;
}

/** Who is signed in, as the UI needs it. */
export interface AuthState {
  status: 'loading' | 'signed-in' | 'signed-out';
  user: { id: string; email: string | null } | null;
  sessionId: string | null;
  /** The session's active organization, from the access token's `org` claim (null for none). */
  organization: ActiveOrganization | null;
}

/** A sign-in that needs its second factor: answer with `verifyMfa` (or `sendMfaSms` first). */
export interface MfaChallenge {
  status: 'mfa-required';
  mfaToken: string;
  factors: string[];
}

export interface SignedIn {
  status: 'signed-in';
  user: { id: string; email: string | null };
  sessionId: string;
}

const SIGNED_OUT: AuthState = {
  status: 'signed-out',
  user: null,
  sessionId: null,
  organization: null,
};

const sameOrganization = (a: ActiveOrganization | null, b: ActiveOrganization | null) =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.id === b.id &&
    a.slug === b.slug &&
    a.role === b.role &&
    a.permissions.join(' ') === b.permissions.join(' '));

/** The browser's WebAuthn prompt: a refusal, a cancel or a timeout becomes a GatehouseError (`passkey-failed`) like every other failure. */
async function ceremony<T>(prompt: () => Promise<T>): Promise<T> {
  try {
    return await prompt();
  } catch (err) {
    throw GatehouseError.passkey(err);
  }
}

/** Creates the client for one project. In a browser, create it once per page (it holds the session). */
export function createGatehouse(options: GatehouseOptions): GatehouseClient {
  return new GatehouseClient(options);
}

/**
 * Every `/v1/auth/*` flow for browsers and Node. The access token is kept in memory and sent as a
 * bearer token; the refresh token stays in its HttpOnly cookie (in Node, in this client's memory).
 * Failures throw `GatehouseError`.
 */
export class GatehouseClient {
  readonly transport: Transport;
  private readonly tokens: TokenKeeper;
  private state: AuthState = { status: 'loading', user: null, sessionId: null, organization: null };
  private email: string | null = null;
  private readonly listeners = new Set<(state: AuthState) => void>();
  private restoring: Promise<AuthState> | null = null;

  constructor(options: GatehouseOptions) {
    this.transport = new Transport(options);
    const crossTab = options.crossTab ?? typeof document !== 'undefined';
    const tabs =
      options.tabs ?? (crossTab ? browserTabs(options.projectKey) : { locks: null, channel: null });
    this.tokens = new TokenKeeper(this.transport, {
      renewBeforeMs: (options.renewBeforeSeconds ?? 60) * 1000,
      tabs,
      now: () => Date.now(),
    });
    this.tokens.onChange((held) => this.follow(held));
  }

  // ---- state ---------------------------------------------------------------------------------

  /** The current state (stable object until it changes: fit for React's useSyncExternalStore). */
  getState(): AuthState {
    return this.state;
  }

  /** Calls `listener` on every change of state; returns the unsubscribe function. */
  onChange(listener: (state: AuthState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Restores the session on page load (or after a redirect back from a magic link or a social
   * provider, which set the cookies): one refresh through the cookie, then `me` for the email.
   * Safe to call more than once.
   */
  restore(): Promise<AuthState> {
    this.restoring ??= (async () => {
      const held = await this.tokens.renew().catch((err: unknown) => {
        this.set(SIGNED_OUT);
        throw err;
      });
      if (!held) {
        this.set(SIGNED_OUT);
        return this.state;
      }
      // The email comes from `me`; without it (offline just now) the session is signed in all the same.
      const me = await this.me().catch(() => null);
      if (me) this.email = me.user.email;
      this.set(this.signedInState(held));
      return this.state;
    })().finally(() => (this.restoring = null));
    return this.restoring;
  }

  /** A current access token (renewed first when it is about to expire), or null when signed out: for your own API calls. */
  getAccessToken(): Promise<string | null> {
    return this.tokens.valid();
  }

  /**
   * fetch for your own API: sends the access token as a bearer token; on a 401 it renews the token
   * once and retries once.
   */
  async fetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
    const attempt = async (token: string | null) => {
      const headers = new Headers(init.headers);
      if (token) headers.set('authorization', `Bearer ${token}`);
      return globalThis.fetch(input, { ...init, headers });
    };
    const first = await attempt(await this.tokens.valid());
    if (first.status !== 401 || !this.tokens.current) return first;
    const renewed = await this.tokens.renew();
    return renewed ? attempt(renewed.accessToken) : first;
  }

  // ---- signing in and out --------------------------------------------------------------------

  async signUp(input: SignUpInput): Promise<SignedIn> {
    const body = await this.transport.call<Schemas['SignedUpResponse']>(
      'POST',
      '/v1/auth/sign-up',
      { body: input },
    );
    return this.signedIn(body.session.access_token, body.user.email);
  }

  /** Password sign-in: signed in, or the MFA challenge to answer with `verifyMfa`. */
  async signIn(input: { identifier: string; password: string }): Promise<SignedIn | MfaChallenge> {
    const body = await this.transport.call<
      Schemas['SignedInResponse'] | Schemas['MfaChallengeResponse']
    >('POST', '/v1/auth/sign-in', { body: input });
    if ('mfa_required' in body)
      return { status: 'mfa-required', mfaToken: body.mfa_token, factors: body.available_factors };
    return this.signedIn(body.session.access_token, body.user.email);
  }

  async verifyMfa(input: { mfaToken: string; factor: MfaFactor; code: string }): Promise<SignedIn> {
    const body = await this.transport.call<Schemas['SignedInResponse']>(
      'POST',
      '/v1/auth/mfa/verify',
      { body: { mfa_token: input.mfaToken, factor: input.factor, code: input.code } },
    );
    return this.signedIn(body.session.access_token, body.user.email);
  }

  /** During an MFA challenge: sends the SMS code (sign-in never sends one by itself). */
  async sendMfaSms(mfaToken: string): Promise<void> {
    await this.transport.call('POST', '/v1/auth/mfa/sms/send', { body: { mfa_token: mfaToken } });
  }

  /** Passkey sign-in (the browser's WebAuthn prompt); a passkey satisfies MFA. `email` narrows the prompt to that account's passkeys. */
  async signInWithPasskey(input: { email?: string } = {}): Promise<SignedIn> {
    const { startAuthentication } = await import('@simplewebauthn/browser');
    const options = await this.transport.call<Schemas['PasskeyRequestOptionsResponse']>(
      'POST',
      '/v1/auth/passkey/authenticate/begin',
      { body: input.email ? { email: input.email } : {} },
    );
    const credential = await ceremony(() => startAuthentication({ optionsJSON: options }));
    const body = await this.transport.call<Schemas['SignedInResponse']>(
      'POST',
      '/v1/auth/passkey/authenticate/complete',
      { body: { credential } },
    );
    return this.signedIn(body.session.access_token, body.user.email);
  }

  /** Ends the session at Gatehouse (cookies cleared) and here, in every tab. */
  async signOut(): Promise<void> {
    const token = this.tokens.current?.accessToken ?? null;
    try {
      if (token) await this.transport.call('POST', '/v1/auth/sign-out', { token });
    } catch (err) {
      // Already ended at Gatehouse: signed out all the same.
      if (!(err instanceof GatehouseError) || err.status !== 401) throw err;
    } finally {
      this.email = null;
      this.tokens.clear();
      this.set(SIGNED_OUT);
    }
  }

  /** Magic link: mails a sign-in link (202 for any address). The link lands on `redirectUrl` (a registered redirect URL) with the cookies set: call `restore()` there. */
  async sendMagicLink(input: { email: string; redirectUrl?: string }): Promise<void> {
    await this.transport.call('POST', '/v1/auth/magic-link/send', {
      body: {
        email: input.email,
        ...(input.redirectUrl ? { redirect_url: input.redirectUrl } : {}),
      },
    });
  }

  /**
   * Home-realm discovery: the enterprise SSO connection of the email's domain, or null (then sign
   * in with a password, a magic link or a social provider). The answer depends on the domain
   * alone: it says nothing of whether the account exists.
   */
  async discoverSso(email: string): Promise<SsoConnection | null> {
    const res = await this.transport.call<{ connection: SsoConnection | null }>(
      'POST',
      '/v1/auth/sso/discover',
      { body: { email } },
    );
    return res.connection;
  }

  /** Where to send the browser to sign in with a social provider; it comes back to `redirectUrl` with cookies, `?error=…`, or `?mfa_required=true&mfa_token=…` (see `readRedirect`). */
  oauthUrl(provider: string, redirectUrl: string): string {
    return this.transport.navigationUrl(
      `/v1/auth/oauth/${encodeURIComponent(provider)}/authorize`,
      { redirect_url: redirectUrl },
    );
  }

  /** What a magic link or social sign-in brought back in the URL: an MFA challenge, an error code, or a session to restore. */
  async readRedirect(
    url: string | URL = typeof location === 'undefined' ? '' : location.href,
  ): Promise<
    SignedIn | MfaChallenge | { status: 'error'; error: string } | { status: 'signed-out' }
  > {
    const params = new URL(url).searchParams;
    const error = params.get('error');
    if (error) return { status: 'error', error };
    const mfaToken = params.get('mfa_token');
    if (params.get('mfa_required') === 'true' && mfaToken)
      return { status: 'mfa-required', mfaToken, factors: [] };
    const state = await this.restore();
    return state.status === 'signed-in'
      ? { status: 'signed-in', user: state.user!, sessionId: state.sessionId! }
      : { status: 'signed-out' };
  }

  // ---- the signed-in user --------------------------------------------------------------------

  /** The signed-in user (`GET /v1/auth/me`), or null. */
  async me(): Promise<Me | null> {
    const token = await this.tokens.valid();
    if (!token) return null;
    const body = await this.transport.call<Me | { user: null }>('GET', '/v1/auth/me', { token });
    return body.user ? body : null;
  }

  listSessions(): Promise<SessionInfo[]> {
    return this.authed<Schemas['SessionListResponse']>('GET', '/v1/auth/sessions').then(
      (b) => b.sessions,
    );
  }

  /** Revokes one of the user's sessions (another device); revoking the current one signs out here. */
  async revokeSession(id: string): Promise<void> {
    await this.authed('DELETE', `/v1/auth/sessions/${encodeURIComponent(id)}`);
    if (id === this.tokens.current?.sessionId) {
      this.tokens.clear();
      this.set(SIGNED_OUT);
    }
  }

  /** Proves identity again (password, a second-factor code, or a passkey) for sensitive actions; the new token carries a fresh `auth_time`. */
  async reauthenticate(
    input: { password: string } | { factor: MfaFactor; code: string } | { passkey: true },
  ): Promise<void> {
    let body: Record<string, unknown>;
    if ('passkey' in input) {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const options = await this.transport.call<Schemas['PasskeyRequestOptionsResponse']>(
        'POST',
        '/v1/auth/passkey/authenticate/begin',
        { body: {} },
      );
      body = { credential: await ceremony(() => startAuthentication({ optionsJSON: options })) };
    } else {
      body = input;
    }
    const answer = await this.authed<Schemas['AccessTokenResponse']>(
      'POST',
      '/v1/auth/reauthenticate',
      body,
    );
    this.tokens.adopt(answer.access_token);
  }

  /** During re-authentication with SMS: sends the code. */
  async sendReauthenticationSms(): Promise<void> {
    await this.authed('POST', '/v1/auth/reauthenticate/sms', {});
  }

  async changePassword(input: { currentPassword: string; newPassword: string }): Promise<void> {
    await this.authed('POST', '/v1/auth/password/change', {
      current_password: input.currentPassword,
      new_password: input.newPassword,
    });
  }

  // ---- email and password --------------------------------------------------------------------

  async sendEmailVerification(): Promise<void> {
    await this.authed('POST', '/v1/auth/verify-email/send', {});
  }

  confirmEmail(token: string): Promise<Schemas['EmailConfirmedResponse']> {
    return this.transport.call('POST', '/v1/auth/verify-email/confirm', { body: { token } });
  }

  async forgotPassword(email: string): Promise<void> {
    await this.transport.call('POST', '/v1/auth/password/forgot', { body: { email } });
  }

  validateResetToken(token: string): Promise<Schemas['ResetTokenValidResponse']> {
    return this.transport.call('POST', '/v1/auth/password/reset/validate', { body: { token } });
  }

  /** Sets a new password with the mailed token; every session of the user ends (sign in again). */
  async resetPassword(input: { token: string; password: string }): Promise<void> {
    await this.transport.call('POST', '/v1/auth/password/reset', { body: input });
  }

  // ---- second factors and passkeys -----------------------------------------------------------

  /** Starts TOTP: the secret, its otpauth:// URL and 10 backup codes (shown once); confirm with `verifyTotp`. */
  setupTotp(): Promise<TotpSetup> {
    return this.authed('POST', '/v1/auth/mfa/totp/setup', {});
  }

  verifyTotp(code: string): Promise<Schemas['FactorEnabledResponse']> {
    return this.authed('POST', '/v1/auth/mfa/totp/verify', { code });
  }

  async setupSms(phoneNumber: string): Promise<void> {
    await this.authed('POST', '/v1/auth/mfa/sms/setup', { phone_number: phoneNumber });
  }

  verifySms(code: string): Promise<Schemas['FactorEnabledResponse']> {
    return this.authed('POST', '/v1/auth/mfa/sms/verify', { code });
  }

  async removeFactor(factor: 'totp' | 'sms'): Promise<void> {
    await this.authed('DELETE', `/v1/auth/mfa/${factor}`);
  }

  regenerateBackupCodes(): Promise<Schemas['BackupCodesResponse']> {
    return this.authed('POST', '/v1/auth/mfa/backup-codes/regenerate', {});
  }

  /** Registers a passkey for the signed-in user (the browser's WebAuthn prompt). */
  async registerPasskey(input: { name?: string } = {}): Promise<void> {
    const { startRegistration } = await import('@simplewebauthn/browser');
    const options = await this.authed<Schemas['PasskeyCreationOptionsResponse']>(
      'POST',
      '/v1/auth/passkey/register/begin',
      {},
    );
    const credential = await ceremony(() => startRegistration({ optionsJSON: options }));
    await this.authed('POST', '/v1/auth/passkey/register/complete', {
      credential,
      ...(input.name ? { name: input.name } : {}),
    });
  }

  listPasskeys(): Promise<Passkey[]> {
    return this.authed<Schemas['PasskeyListResponse']>('GET', '/v1/auth/passkeys').then(
      (b) => b.passkeys,
    );
  }

  async deletePasskey(id: string): Promise<void> {
    await this.authed('DELETE', `/v1/auth/passkeys/${encodeURIComponent(id)}`);
  }

  /** Accepts an organization invitation (mailed token) for the signed-in user. */
  acceptInvitation(token: string): Promise<Schemas['InvitationAcceptedResponse']> {
    return this.authed('POST', '/v1/auth/invitations/accept', { token });
  }

  // ---- organizations -------------------------------------------------------------------------

  /** The session's active organization (the current token's `org` claim), or null; also `getState().organization`. */
  get organization(): ActiveOrganization | null {
    return this.state.organization;
  }

  /** Whether the active organization grants a permission (`{permission: 'invoices:read'}`) or is held with a role (`{role: 'billing'}`). */
  has(requirement: OrganizationRequirement): boolean {
    return hasPermission(this.state.organization, requirement);
  }

  /** The user's organizations in the project, by name, with their role and what it grants. */
  listOrganizations(): Promise<Organization[]> {
    return this.authed<Schemas['MyOrganizationsResponse']>('GET', '/v1/auth/organizations').then(
      (b) => b.organizations,
    );
  }

  /** Creates an organization with the user as its `admin` (when the project's `settings.organizations.allow_user_create` is true; else `forbidden`). It does not become active by itself. */
  createOrganization(input: CreateOrganizationInput): Promise<Organization> {
    return this.authed('POST', '/v1/auth/organizations', input);
  }

  /** Organizations the user may join by their verified email's domain (the domain's enrollment is `suggest`). */
  async listOrganizationSuggestions(): Promise<OrganizationSuggestion[]> {
    const res = await this.authed<{ suggestions: OrganizationSuggestion[] }>(
      'GET',
      '/v1/auth/organizations/suggestions',
    );
    return res.suggestions;
  }

  /** Joins the organization of a suggestion (its `id`) with the domain's role; resolves to the membership. */
  acceptOrganizationSuggestion(id: string): Promise<Organization> {
    return this.authed(
      'POST',
      `/v1/auth/organizations/suggestions/${encodeURIComponent(id)}/accept`,
    );
  }

  /**
   * Makes one of the user's organizations the session's active one (`null`: none). The new access
   * token (with its `org` claim) replaces the one held, here and in the other tabs, so your API
   * calls, `getAccessToken()` and `fetch()` carry it at once; the session keeps the choice, so
   * every later refresh carries it too. Resolves to the active organization; subscribers are told.
   */
  async setActiveOrganization(organizationId: string | null): Promise<ActiveOrganization | null> {
    const answer = await this.authed<Schemas['AccessTokenResponse']>(
      'POST',
      '/v1/auth/organizations/active',
      { organization_id: organizationId },
    );
    this.adoptSessionToken(answer.access_token);
    return this.state.organization;
  }

  /** Renames the organization, changes its slug or its `settings` (`org:settings:manage`). */
  updateOrganization(id: string, input: UpdateOrganizationInput): Promise<Organization> {
    return this.authed('PATCH', `/v1/auth/organizations/${encodeURIComponent(id)}`, input);
  }

  /** Deletes the organization (`org:delete`); when it was the active one, the token is renewed without it. */
  async deleteOrganization(id: string): Promise<void> {
    await this.authed('DELETE', `/v1/auth/organizations/${encodeURIComponent(id)}`);
    await this.afterMembershipChange(id);
  }

  /** The organization's members, oldest first (`org:members:read`), a page at a time. */
  listMembers(
    id: string,
    page: { page?: number; limit?: number } = {},
  ): Promise<OrganizationMemberList> {
    return this.authed(
      'GET',
      `/v1/auth/organizations/${encodeURIComponent(id)}/members`,
      undefined,
      {
        page: page.page?.toString(),
        limit: page.limit?.toString(),
      },
    );
  }

  /** Changes a member's role (`org:members:manage`); your own role in the active organization reaches the token at once. */
  async updateMember(
    id: string,
    userId: string,
    input: { role: string },
  ): Promise<OrganizationMember> {
    const member = await this.authed<OrganizationMember>(
      'PATCH',
      `/v1/auth/organizations/${encodeURIComponent(id)}/members/${encodeURIComponent(userId)}`,
      input,
    );
    if (member.user_id === this.state.user?.id) await this.afterMembershipChange(id);
    return member;
  }

  /** Invites an email address (`org:members:manage`) with a role granting no more than yours (default `member`); the invitee gets the mailed link. */
  inviteMember(id: string, input: InviteMemberInput): Promise<OrganizationInvitation> {
    return this.authed(
      'POST',
      `/v1/auth/organizations/${encodeURIComponent(id)}/invitations`,
      input,
    );
  }

  /** Removes a member (`org:members:manage`); removing yourself is `leaveOrganization`. */
  async removeMember(id: string, userId: string): Promise<void> {
    await this.authed(
      'DELETE',
      `/v1/auth/organizations/${encodeURIComponent(id)}/members/${encodeURIComponent(userId)}`,
    );
    if (userId === 'me' || userId === this.state.user?.id) await this.afterMembershipChange(id);
  }

  /** Leaves the organization (no permission needed; the last admin cannot: `conflict`); when it was the active one, the token is renewed without it. */
  async leaveOrganization(id: string): Promise<void> {
    await this.removeMember(id, 'me');
  }

  /** Stops the timers and the tab channel (tests, hot reload). */
  dispose(): void {
    this.tokens.dispose();
    this.listeners.clear();
  }

  // ---- internals -----------------------------------------------------------------------------

  /** A call with the session: renews first when needed; a 401 renews once and retries once. */
  private async authed<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    query?: Record<string, string | undefined>,
  ): Promise<T> {
    const token = await this.tokens.valid();
    if (!token)
      throw new GatehouseError(401, {
        type: 'https://gatehouse.dev/problems/unauthenticated',
        title: 'Unauthenticated',
        status: 401,
        detail: 'Not signed in.',
      });
    try {
      return await this.transport.call<T>(method, path, { token, body, query });
    } catch (err) {
      if (!(err instanceof GatehouseError) || err.status !== 401 || err.slug !== 'unauthenticated')
        throw err;
      const renewed = await this.tokens.renew();
      if (!renewed) {
        this.set(SIGNED_OUT);
        throw err;
      }
      return this.transport.call<T>(method, path, { token: renewed.accessToken, body, query });
    }
  }

  /** A token the runtime issued for this session (the active organization changed): held, told to the tabs and to subscribers. */
  private adoptSessionToken(accessToken: string): void {
    const held = this.tokens.adopt(accessToken);
    if (!held)
      throw new GatehouseError(502, {
        title: 'Bad gateway',
        detail: 'Gatehouse answered an access token this client cannot read.',
      });
    this.set(this.signedInState(held));
  }

  /** The user's membership of `organizationId` changed (left, removed, deleted, role): if it is the active one, a renewed token says so now rather than at the next renewal. */
  private async afterMembershipChange(organizationId: string): Promise<void> {
    if (this.state.organization?.id !== organizationId) return;
    // Offline just now: the change itself is done, and the next renewal carries it.
    await this.tokens.renew().catch(() => undefined);
  }

  private signedIn(accessToken: string, email: string | null): SignedIn {
    this.email = email;
    const held = this.tokens.adopt(accessToken);
    if (!held)
      throw new GatehouseError(502, {
        title: 'Bad gateway',
        detail: 'Gatehouse answered an access token this client cannot read.',
      });
    const state = this.signedInState(held);
    this.set(state);
    return { status: 'signed-in', user: state.user!, sessionId: held.sessionId };
  }

  private signedInState(held: HeldToken): AuthState {
    return {
      status: 'signed-in',
      user: { id: held.userId, email: this.email },
      sessionId: held.sessionId,
      organization: held.organization,
    };
  }

  /** Follows the token: another tab signed in or out (or changed the active organization), a refresh found the session ended or the organization's role changed. */
  private follow(held: HeldToken | null): void {
    // A restore on page load sets the state itself once `me` has answered: no "signed in" without the email first.
    if (held && this.restoring && this.state.status === 'loading') return;
    if (!held) {
      if (this.state.status === 'signed-in') this.set(SIGNED_OUT);
      return;
    }
    if (
      this.state.status !== 'signed-in' ||
      this.state.sessionId !== held.sessionId ||
      this.state.user?.id !== held.userId ||
      !sameOrganization(this.state.organization, held.organization)
    ) {
      // Another user signed in in another tab: this tab's email was the previous user's.
      if (this.state.user && this.state.user.id !== held.userId) this.email = null;
      this.set(this.signedInState(held));
    }
  }

  private set(state: AuthState): void {
    if (
      state.status === this.state.status &&
      state.sessionId === this.state.sessionId &&
      state.user?.id === this.state.user?.id &&
      state.user?.email === this.state.user?.email &&
      sameOrganization(state.organization, this.state.organization)
    )
      return;
    this.state = state;
    for (const listener of this.listeners) listener(state);
  }
}
