import { SessionManager } from '../auth/session';
import { authenticatedFetch } from './clients';
import { ApiProblem } from '@gatehouse/ui-shared';

const jwt = (sub: string) =>
  `h.${Buffer.from(JSON.stringify({ sub, sid: 's', tid: 't', aud: 'p', iat: 0, exp: 900 })).toString('base64url')}.s`;
const noTimers = { set: () => 0, clear: () => undefined };

describe('authenticatedFetch (every API call of the console)', () => {
  it('sends the bearer token; on a 401 renews once and retries with the new token', async () => {
    let refreshes = 0;
    const session = new SessionManager(
      async () => ({ access_token: jwt(`renewed-${++refreshes}`), expires_in: 900 }),
      () => 0,
      noTimers,
    );
    session.set(jwt('first'));
    const seen: string[] = [];
    const base = (async (req: Request) => {
      seen.push(req.headers.get('Authorization') ?? '');
      return new Response(null, { status: seen.length === 1 ? 401 : 200 });
    }) as typeof fetch;
    const res = await authenticatedFetch(session, base)('http://cp.test/v1/admin/projects', {
      method: 'GET',
    });
    expect(res.status).toBe(200);
    expect(refreshes).toBe(1);
    expect(seen).toEqual([`Bearer ${jwt('first')}`, `Bearer ${jwt('renewed-1')}`]);
  });

  it('concurrent 401s share one renewal', async () => {
    let refreshes = 0;
    const session = new SessionManager(
      async () => ({ access_token: jwt(`renewed-${++refreshes}`), expires_in: 900 }),
      () => 0,
      noTimers,
    );
    session.set(jwt('old'));
    const base = (async (req: Request) =>
      new Response(null, {
        status: req.headers.get('Authorization') === `Bearer ${jwt('old')}` ? 401 : 204,
      })) as typeof fetch;
    const call = authenticatedFetch(session, base);
    const answers = await Promise.all([
      call('http://cp.test/a'),
      call('http://cp.test/b'),
      call('http://cp.test/c'),
    ]);
    expect(answers.map((r) => r.status)).toEqual([204, 204, 204]);
    expect(refreshes).toBe(1);
  });

  it('a 401 that renewal cannot cure is returned as is, and the session ends', async () => {
    const session = new SessionManager(
      async () => null,
      () => 0,
      noTimers,
    );
    session.set(jwt('revoked'));
    const base = (async () => new Response(null, { status: 401 })) as typeof fetch;
    expect((await authenticatedFetch(session, base)('http://cp.test/x')).status).toBe(401);
    expect(session.token()).toBeNull();
  });

  it('a network failure becomes a problem with status 0', async () => {
    const session = new SessionManager(
      async () => null,
      () => 0,
      noTimers,
    );
    const base = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    await expect(authenticatedFetch(session, base)('http://cp.test/x')).rejects.toBeInstanceOf(
      ApiProblem,
    );
  });
});
