import { sha256Hex } from '@gatehouse/crypto';
import {
  acrSatisfies,
  boundGrantId,
  clientSid,
  completionOf,
  grantContinuation,
  isStale,
  LOA_2,
  maxAgeOf,
  postLogoutRedirect,
  providerSessionMeetsAcr,
  requiredAcr,
  resumeDecision,
  signInAcr,
  signInRefusal,
  switchesAccount,
  type FreshnessInput,
} from './oidc-grant-policy';

const LOA_1 = 'urn:gatehouse:loa:1';

describe('grant-bound records', () => {
  it('a grant is bound to itself, a code or token to its grantId; sessions, interactions and clients to nothing', () => {
    expect(boundGrantId('Grant', 'g1', {})).toBe('g1');
    for (const model of [
      'AccessToken',
      'RefreshToken',
      'AuthorizationCode',
      'BackchannelAuthenticationRequest',
      'DeviceCode',
    ])
      expect(boundGrantId(model, 't1', { grantId: 'g2' })).toBe('g2');
    for (const model of [
      'Session',
      'Interaction',
      'Client',
      'PushedAuthorizationRequest',
      'ClientCredentials',
    ])
      expect(boundGrantId(model, 'x', { grantId: 'g3' })).toBeNull();
  });

  it('a grant-bound record without a string grantId binds to nothing', () => {
    expect(boundGrantId('AccessToken', 't1', {})).toBeNull();
    expect(boundGrantId('RefreshToken', 't1', { grantId: 7 })).toBeNull();
  });
});

describe('completionOf', () => {
  it('reads the completion Gatehouse added to an interaction result, and nothing else', () => {
    expect(completionOf({ login: {}, gatehouse: { sid: 's', hash: 'h' } })).toEqual({
      sid: 's',
      hash: 'h',
    });
    expect(completionOf({ gatehouse: { hash: 'h' } })).toEqual({ sid: null, hash: 'h' });
    expect(completionOf({ login: {} })).toBeNull();
    expect(completionOf(undefined)).toBeNull();
    expect(completionOf({ gatehouse: { hash: 1 } })).toBeNull();
  });
});

describe('the completion binding', () => {
  const completed = (fresh?: boolean) => ({
    login: { accountId: 'u1' },
    gatehouse: { sid: 'sess-1', hash: sha256Hex('the-value'), ...(fresh ? { fresh } : {}) },
  });

  it('an interaction without a Gatehouse completion is open to any browser', () => {
    expect(resumeDecision(undefined, null)).toEqual({ kind: 'open' });
    expect(resumeDecision({ login: { accountId: 'u1' } }, 'anything')).toEqual({ kind: 'open' });
  });

  it('a completed one continues only for the completion value, as the Gatehouse session that completed it', () => {
    expect(resumeDecision(completed(), 'the-value')).toEqual({
      kind: 'accepted',
      sid: 'sess-1',
      fresh: false,
    });
    expect(resumeDecision(completed(true), 'the-value')).toEqual({
      kind: 'accepted',
      sid: 'sess-1',
      fresh: true,
    });
  });

  it('another value, or none, is refused', () => {
    expect(resumeDecision(completed(), 'another')).toEqual({ kind: 'refused' });
    expect(resumeDecision(completed(), '')).toEqual({ kind: 'refused' });
    expect(resumeDecision(completed(), null)).toEqual({ kind: 'refused' });
  });

  it("a sign-in replaces the browser's provider session only when that session is another account's", () => {
    expect(switchesAccount(undefined, 'u1')).toBe(false);
    expect(switchesAccount('u1', 'u1')).toBe(false);
    expect(switchesAccount('u2', 'u1')).toBe(true);
  });
});

describe('the fresh-session check', () => {
  const base: FreshnessInput = {
    loginPrompt: false,
    maxAge: null,
    authTime: 1_000,
    authTimeMs: 1_000_250,
    startedMs: 1_000_500,
    nowMs: 1_100_000,
  };

  it('without prompt=login or max_age any session is fresh enough', () => {
    expect(isStale(base)).toBe(false);
  });

  it('prompt=login needs a proof made after the request began, ordered in milliseconds', () => {
    expect(isStale({ ...base, loginPrompt: true })).toBe(true);
    expect(isStale({ ...base, loginPrompt: true, authTimeMs: 1_000_500 })).toBe(true);
    expect(isStale({ ...base, loginPrompt: true, authTimeMs: 1_000_501 })).toBe(false);
  });

  it('without the row time, the auth_time claim (seconds) orders it', () => {
    expect(isStale({ ...base, loginPrompt: true, authTimeMs: null, authTime: 1_000 })).toBe(true);
    expect(isStale({ ...base, loginPrompt: true, authTimeMs: null, authTime: 1_001 })).toBe(false);
  });

  it('max_age allows a proof at most that many seconds old', () => {
    expect(isStale({ ...base, maxAge: 100 })).toBe(false);
    expect(isStale({ ...base, maxAge: 99 })).toBe(true);
    expect(isStale({ ...base, maxAge: 0, nowMs: 1_000_000 })).toBe(false);
  });

  it('a max_age that is no number demands nothing', () => {
    expect(maxAgeOf(undefined)).toBeNull();
    expect(maxAgeOf('60')).toBe(60);
    expect(isStale({ ...base, maxAge: maxAgeOf('soon') })).toBe(false);
  });
});

describe('acr', () => {
  it('the weakest known class the request names is its demand; unknown values demand nothing', () => {
    expect(requiredAcr(undefined)).toBeNull();
    expect(requiredAcr('urn:other')).toBeNull();
    expect(requiredAcr(`${LOA_2} ${LOA_1}`)).toBe(LOA_1);
    expect(requiredAcr(`urn:other ${LOA_2}`)).toBe(LOA_2);
  });

  it('a higher class meets a lower demand, never the reverse', () => {
    expect(acrSatisfies(LOA_2, LOA_1)).toBe(true);
    expect(acrSatisfies(LOA_1, LOA_2)).toBe(false);
    expect(acrSatisfies(undefined, LOA_1)).toBe(false);
    expect(acrSatisfies(undefined, null)).toBe(true);
  });

  it('a second factor or a passkey is the second level; a password, a magic link or a social sign-in the first', () => {
    expect(signInAcr('mfa', LOA_2)).toEqual({ acr: LOA_2, met: true });
    expect(signInAcr('passkey', LOA_2)).toEqual({ acr: LOA_2, met: true });
    for (const method of ['password', 'magic_link', 'oauth'])
      expect(signInAcr(method, LOA_2)).toEqual({ acr: LOA_1, met: false, required: LOA_2 });
    expect(signInAcr('password', `${LOA_1} ${LOA_2}`)).toEqual({ acr: LOA_1, met: true });
    expect(signInAcr('password', undefined)).toEqual({ acr: LOA_1, met: true });
  });

  it('an unmet second level is a step-up for a user who has a second factor, else a refusal to set one up', () => {
    expect(signInRefusal(LOA_2, true)).toBe('step-up');
    expect(signInRefusal(LOA_2, false)).toBe('no-second-factor');
  });

  it("the provider's login prompt asks again when its session is weaker than the request's acr_values", () => {
    expect(providerSessionMeetsAcr(LOA_1, LOA_2)).toBe(false);
    expect(providerSessionMeetsAcr(LOA_2, LOA_2)).toBe(true);
    expect(providerSessionMeetsAcr(undefined, undefined)).toBe(true);
  });
});

describe('the grant an authorization request continues with', () => {
  const input = { existing: false, afterSignIn: false, firstParty: false, gatehouseSession: true };

  it('an existing grant is reused, except right after a sign-in (then a new one for the new session)', () => {
    expect(grantContinuation({ ...input, existing: true })).toBe('existing');
    expect(grantContinuation({ ...input, existing: true, afterSignIn: true })).toBe('new');
  });

  it('without a grant, a third-party client asks for consent, a first-party one is granted what it asks', () => {
    expect(grantContinuation(input)).toBe('none');
    expect(grantContinuation({ ...input, afterSignIn: true })).toBe('none');
    expect(grantContinuation({ ...input, firstParty: true })).toBe('new');
  });

  it('nothing new is granted without the Gatehouse session behind the provider session', () => {
    expect(grantContinuation({ ...input, firstParty: true, gatehouseSession: false })).toBe('none');
    expect(
      grantContinuation({ ...input, existing: true, afterSignIn: true, gatehouseSession: false }),
    ).toBe('none');
    expect(grantContinuation({ ...input, existing: true, gatehouseSession: false })).toBe(
      'existing',
    );
  });

  it("an ID token's sid is the Gatehouse session, else the one the provider session has, else a new one", () => {
    expect(clientSid('sess-1', 'old', () => 'new')).toBe('sess-1');
    expect(clientSid(null, 'old', () => 'new')).toBe('old');
    expect(clientSid(null, undefined, () => 'new')).toBe('new');
  });
});

describe('the post-logout redirect', () => {
  it('an admin-created client is sent to a registered URI; an unregistered one is refused', () => {
    expect(
      postLogoutRedirect({ registered: true, selfRegistered: false, idTokenHint: false }),
    ).toBe('redirect');
    expect(
      postLogoutRedirect({ registered: false, selfRegistered: false, idTokenHint: true }),
    ).toBe('refused');
    expect(postLogoutRedirect({ registered: false, selfRegistered: true, idTokenHint: true })).toBe(
      'refused',
    );
  });

  it('a self-registered client only with its own ID token; with only client_id the logout ends on the signed-out page', () => {
    expect(postLogoutRedirect({ registered: true, selfRegistered: true, idTokenHint: true })).toBe(
      'redirect',
    );
    expect(postLogoutRedirect({ registered: true, selfRegistered: true, idTokenHint: false })).toBe(
      'signed-out-page',
    );
    expect(postLogoutRedirect({ registered: true, selfRegistered: true, idTokenHint: null })).toBe(
      'refused',
    );
  });
});
