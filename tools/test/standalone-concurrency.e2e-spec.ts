import request, { type Response } from 'supertest';
import { cookiesOf, linkIn, nextIp, SmtpSink } from '@gatehouse/testing';
import { startStandaloneProcess, type StandaloneProcess } from './standalone-process';

/**
 * Standalone mode under concurrent requests: every app of the process shares the one embedded
 * database (PGlite behind the session server of libs/entities), the in-process cache and the
 * in-process job broker. Each journey here runs requests at once, as the concurrency e2e suites
 * of the apps do against PostgreSQL and Redis; any interleaving of two connections' protocol
 * messages on the one database session shows up as a 500 or a wrong answer.
 */
describe('standalone mode holds under concurrent requests', () => {
  const smtp = new SmtpSink();
  let gh: StandaloneProcess;
  let projectKey: string;
  let projectId: string;
  let userCount = 0;
  const password = 'a sturdy passphrase 42';
  const rt = () => request(gh.runtime);
  const cp = (method: 'get' | 'post' | 'patch', path: string) => request(gh.controlPlane)[method](path).set('Authorization', `Bearer ${gh.adminToken}`);
  const post = (path: string, body: object, token?: string) => {
    const req = rt().post(path).set('X-Service-Project-Key', projectKey).set('X-Forwarded-For', nextIp());
    return (token ? req.set('Authorization', `Bearer ${token}`) : req).send(body);
  };
  const signIn = (email: string) => post('/v1/auth/sign-in', { identifier: email, password });
  const me = (token: string) => rt().get('/v1/auth/me').set('X-Service-Project-Key', projectKey).set('Authorization', `Bearer ${token}`);
  const refresh = (token: string) => rt().post('/v1/auth/refresh').set('X-Service-Project-Key', projectKey).set('Cookie', `service_refresh_token=${token}`);
  const follow = (link: URL) => rt().get(`${link.pathname}${link.search}`);
  const refreshCookie = (res: Response) => cookiesOf(res).service_refresh_token.value;

  async function newUser(prefix: string): Promise<{ email: string; accessToken: string; refreshToken: string }> {
    userCount += 1;
    const email = `${prefix}-${userCount}@example.com`;
    const res = await post('/v1/auth/sign-up', { email, password });
    if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { email, accessToken: res.body.session.access_token, refreshToken: refreshCookie(res) };
  }

  /** Asks for magic links for `emails` at once and waits for each mail: the links, in order. */
  async function magicLinks(emails: string[]): Promise<URL[]> {
    const sent = await Promise.all(emails.map((email) => post('/v1/auth/magic-link/send', { email })));
    expect(sent.map((r) => r.status)).toEqual(emails.map(() => 202));
    return Promise.all(emails.map(async (email) => linkIn(await smtp.waitFor(email, 30_000, /sign/i))));
  }

  /** Every answer that is a 5xx, with its body: what the journeys must never see. */
  const serverErrors = (answers: Response[]) => answers.filter((r) => r.status >= 500).map((r) => `${r.status} ${r.req.path}: ${JSON.stringify(r.body)}`);

  beforeAll(async () => {
    await smtp.start();
    gh = await startStandaloneProcess({ SMTP_URL: smtp.url });
    const project = await cp('post', '/v1/admin/projects').send({
      name: 'Concurrent App',
      allowed_origins: ['https://app.example.com'],
      redirect_urls: ['https://app.example.com/callback'],
      settings: { default_redirect_url: 'https://app.example.com/callback' },
    });
    expect(project.status).toBe(201);
    projectKey = project.body.publishable_key;
    projectId = project.body.id;
  }, 120_000);
  afterAll(async () => {
    await gh?.stop();
    await smtp.stop();
  });

  it('answers three bursts of 60 mixed requests (sign-ins, /me, refreshes, magic-link sends and verifies) with no 5xx, and every mail arrives', async () => {
    for (let burst = 1; burst <= 3; burst++) {
      const signInUsers = await Promise.all(Array.from({ length: 12 }, () => newUser(`b${burst}-signin`)));
      const meUsers = await Promise.all(Array.from({ length: 12 }, () => newUser(`b${burst}-me`)));
      const refreshUsers = await Promise.all(Array.from({ length: 12 }, () => newUser(`b${burst}-refresh`)));
      const sendUsers = await Promise.all(Array.from({ length: 12 }, () => newUser(`b${burst}-send`)));
      const verifyUsers = await Promise.all(Array.from({ length: 12 }, () => newUser(`b${burst}-verify`)));
      const links = await magicLinks(verifyUsers.map((u) => u.email));
      smtp.clear();

      const requests: { kind: string; run: () => Promise<Response>; ok: (r: Response) => boolean }[] = [];
      for (let i = 0; i < 12; i++) {
        requests.push({ kind: 'sign-in', run: () => signIn(signInUsers[i].email), ok: (r) => r.status === 200 && typeof r.body.session?.access_token === 'string' });
        requests.push({ kind: 'me', run: () => me(meUsers[i].accessToken), ok: (r) => r.status === 200 && r.body.user?.email === meUsers[i].email });
        requests.push({ kind: 'refresh', run: () => refresh(refreshUsers[i].refreshToken), ok: (r) => r.status === 200 && typeof r.body.access_token === 'string' });
        requests.push({ kind: 'magic-link send', run: () => post('/v1/auth/magic-link/send', { email: sendUsers[i].email }), ok: (r) => r.status === 202 });
        requests.push({
          kind: 'magic-link verify',
          run: () => follow(links[i]),
          ok: (r) => r.status === 302 && r.headers.location === 'https://app.example.com/callback' && Boolean(cookiesOf(r).service_session),
        });
      }
      // Interleaved kinds, all at once.
      const answers = await Promise.all(requests.map((q) => q.run()));
      expect(serverErrors(answers)).toEqual([]);
      const wrong = requests.flatMap((q, i) => (q.ok(answers[i]) ? [] : [`${q.kind}: ${answers[i].status} ${JSON.stringify(answers[i].body)} ${answers[i].headers.location ?? ''}`]));
      expect(wrong).toEqual([]);
      const mails = await Promise.all(sendUsers.map((u) => smtp.waitFor(u.email, 30_000, /sign/i).then(linkIn)));
      expect(mails.map((l) => l.pathname)).toEqual(sendUsers.map(() => '/v1/auth/magic-link/verify'));
      smtp.clear();
    }
  }, 240_000);
});
