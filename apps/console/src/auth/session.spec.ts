import { decodeClaims, SessionManager, type Timers } from './session';

function token(claims: Record<string, unknown>): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'ES256', kid: 'k' })}.${part(claims)}.signature`;
}

const claims = (iat: number, exp: number) => ({
  sub: 'u1',
  sid: 's1',
  tid: 't1',
  aud: 'p1',
  adm: true,
  iat,
  exp,
});

/** Manual timers: the test fires them. */
function manualTimers(): Timers & { pending: { run: () => void; ms: number }[] } {
  const pending: { run: () => void; ms: number }[] = [];
  return {
    pending,
    set: (run, ms) => {
      const t = { run, ms };
      pending.push(t);
      return t;
    },
    clear: (t) => {
      const i = pending.indexOf(t as { run: () => void; ms: number });
      if (i >= 0) pending.splice(i, 1);
    },
  };
}

describe('SessionManager (the console keeps its access token in memory and renews it)', () => {
  it('decodes the claims of a JWT and refuses anything else', () => {
    expect(decodeClaims(token(claims(100, 1000)))).toMatchObject({
      sub: 'u1',
      adm: true,
      exp: 1000,
    });
    expect(decodeClaims('not-a-jwt')).toBeNull();
    expect(decodeClaims(`a.${Buffer.from('{"sub":1}').toString('base64url')}.c`)).toBeNull();
    expect(decodeClaims('a.!!!.c')).toBeNull();
  });

  it('makes one refresh request however many callers ask at once, and all get its answer', async () => {
    let calls = 0;
    let release: (v: { access_token: string; expires_in: number }) => void = () => undefined;
    const session = new SessionManager(
      () =>
        new Promise((resolve) => {
          calls += 1;
          release = resolve;
        }),
      () => 0,
      manualTimers(),
    );
    const answers = Promise.all([session.renew(), session.renew(), session.renew()]);
    release({ access_token: token(claims(0, 900)), expires_in: 900 });
    const [a, b, c] = await answers;
    expect(calls).toBe(1);
    expect(a?.accessToken).toBe(b?.accessToken);
    expect(c?.claims.sub).toBe('u1');
    // A later renewal is a new request.
    const again = session.renew();
    release({ access_token: token(claims(10, 910)), expires_in: 900 });
    await again;
    expect(calls).toBe(2);
  });

  it('measures expiry by the local clock from the lifetime, not by the server clock in exp', () => {
    const session = new SessionManager(
      async () => null,
      () => 5_000_000,
      manualTimers(),
    );
    const s = session.set(token(claims(1, 901)));
    expect(s?.expiresAt).toBe(5_000_000 + 900_000);
  });

  it('schedules a renewal a minute before expiry (or at 80 % of a short lifetime) and replaces the token', async () => {
    const timers = manualTimers();
    let calls = 0;
    const session = new SessionManager(
      async () => ({ access_token: token(claims(calls++, 900 + calls)), expires_in: 900 }),
      () => 0,
      timers,
    );
    session.set(token(claims(0, 900)), 900);
    expect(timers.pending.map((t) => t.ms)).toEqual([840_000]);
    timers.pending.shift()!.run();
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(1);
    expect(timers.pending).toHaveLength(1);
    session.set(token(claims(0, 100)), 100);
    expect(timers.pending.map((t) => t.ms)).toEqual([80_000]);
  });

  it('a refused refresh ends the session and tells the listeners; a network failure keeps the token', async () => {
    let answer: 'refuse' | 'fail' = 'fail';
    const session = new SessionManager(
      async () => {
        if (answer === 'fail') throw new Error('offline');
        return null;
      },
      () => 0,
      manualTimers(),
    );
    const seen: (string | null)[] = [];
    session.subscribe((s) => seen.push(s ? s.claims.sub : null));
    session.set(token(claims(0, 900)));
    await expect(session.renew()).rejects.toThrow('offline');
    expect(session.token()).not.toBeNull();
    answer = 'refuse';
    expect(await session.renew()).toBeNull();
    expect(session.token()).toBeNull();
    expect(seen).toEqual(['u1', null]);
  });

  it('clear() cancels the scheduled renewal', () => {
    const timers = manualTimers();
    const session = new SessionManager(
      async () => null,
      () => 0,
      timers,
    );
    session.set(token(claims(0, 900)));
    session.clear();
    expect(timers.pending).toHaveLength(0);
  });
});
