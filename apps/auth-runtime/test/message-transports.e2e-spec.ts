import { spawn } from 'node:child_process';
import { join } from 'node:path';
import {
  nextIp,
  seedTenant,
  signUpUser,
  spawnApp,
  startTestApp,
  testEnvWith,
  type AppProcess,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';
import { BackgroundTasks } from '../src/common/background-tasks';

/** The messages a worker logged instead of sending (JSON log lines) under a logger context. */
function loggedBy(worker: AppProcess, context: string): string[] {
  return worker
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { context?: string; message?: string })
    .filter((entry) => entry.context === context)
    .map((entry) => entry.message ?? '');
}

const ROOT = join(__dirname, '..', '..', '..');

/** Runs a compiled app until it exits (it is expected to refuse to start). */
function runToExit(
  app: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['-r', join(ROOT, 'tools/register.js'), join(ROOT, 'dist/apps', app, 'src/main.js')],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** Issue 20: production never falls back to logging mail and SMS unasked, and what is logged holds no token or code. */
describe('mail and SMS transports', () => {
  it('refuses to start any app in production without SMTP_URL or SMS_GATEWAY_URL, one line naming each variable', async () => {
    const env = testEnvWith({
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      AUTH_RUNTIME_PORT: '0',
      CONTROL_PLANE_PORT: '0',
      WEBHOOK_WORKER_PORT: '0',
      METRICS_ENABLED: 'false',
    });
    const cases: [Record<string, string>, string[]][] = [
      [
        {},
        [
          'Invalid configuration: SMTP_URL: is required when NODE_ENV=production (or set MAIL_TRANSPORT=log to write mail to the log instead of sending it)',
          'Invalid configuration: SMS_GATEWAY_URL: is required when NODE_ENV=production (or set SMS_TRANSPORT=log to write SMS to the log instead of sending them)',
        ],
      ],
      [
        { SMTP_URL: 'smtp://127.0.0.1:1025', SMS_TRANSPORT: 'http' },
        ['Invalid configuration: SMS_GATEWAY_URL: is required when SMS_TRANSPORT=http'],
      ],
      [
        {
          SMS_GATEWAY_URL: 'http://127.0.0.1:9/sms',
          MAIL_TRANSPORT: 'log',
          SMS_TRANSPORT: 'carrier-pigeon',
        },
        ['Invalid configuration: SMS_TRANSPORT: must be http or log'],
      ],
    ];
    // Every app for the first case (they share one config); the worker, which sends, for the others.
    const runs: [string, [Record<string, string>, string[]]][] = [
      ...['auth-runtime', 'control-plane', 'webhook-worker'].map(
        (app) => [app, cases[0]] as [string, [Record<string, string>, string[]]],
      ),
      ...cases
        .slice(1)
        .map((c) => ['webhook-worker', c] as [string, [Record<string, string>, string[]]]),
    ];
    for (const [app, [extra, lines]] of runs) {
      const run = await runToExit(app, { ...env, ...extra });
      expect({
        app,
        extra,
        code: run.code,
        stderr: run.stderr.trimEnd().split('\n'),
        stdout: run.stdout,
      }).toEqual({ app, extra, code: 1, stderr: lines, stdout: '' });
    }
  });

  describe('log mode, asked for explicitly in production', () => {
    let worker: AppProcess;
    let t: TestApp;
    let tenant: SeededTenant;
    const post = (path: string, body: object, token?: string) => {
      const req = t
        .http()
        .post(path)
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('X-Forwarded-For', nextIp());
      return (token ? req.set('Authorization', `Bearer ${token}`) : req).send(body);
    };
    const logged = (context: string) => loggedBy(worker, context);

    beforeAll(async () => {
      t = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
      // Jobs an earlier file left queued would reach this worker's log: none are left.
      await t.reset();
      worker = await spawnApp('webhook-worker', {
        NODE_ENV: 'production',
        MAIL_TRANSPORT: 'log',
        SMS_TRANSPORT: 'log',
        LOG_LEVEL: 'info',
      });
    });
    beforeEach(async () => {
      await t.reset();
      tenant = await seedTenant(t.app);
    });
    afterAll(async () => {
      await t.close();
      await worker.stop();
    });

    it('writes each mail and SMS to the log with its link tokens and codes redacted', async () => {
      const u = await signUpUser(t, tenant.projectKey, 'logged@example.com');
      expect((await post('/v1/auth/verify-email/send', {}, u.accessToken)).status).toBe(202);
      expect((await post('/v1/auth/password/forgot', { email: u.email })).status).toBe(202);
      expect((await post('/v1/auth/magic-link/send', { email: u.email })).status).toBe(202);
      await t.app.get(BackgroundTasks).drain();
      expect(
        (await post('/v1/auth/mfa/sms/setup', { phone_number: '+14155550142' }, u.accessToken))
          .status,
      ).toBe(202);

      const until = Date.now() + 15_000;
      while (
        (logged('MailProcessor').length < 3 || logged('SmsProcessor').length < 1) &&
        Date.now() < until
      )
        await new Promise((r) => setTimeout(r, 100));
      const mails = logged('MailProcessor');
      const sms = logged('SmsProcessor');
      expect(mails).toHaveLength(3);
      expect(sms).toEqual([
        'sms (SMS_TRANSPORT=log: not sent, code redacted) to=+14155550142: Your Acme App verification code is [redacted]. It expires in 10 minutes.',
      ]);
      const subjects = [
        'Confirm your email for Acme App',
        'Reset your Acme App password',
        'Your sign-in link for Acme App',
      ];
      for (const subject of subjects) {
        const mail = mails.find((m) => m.includes(`subject="${subject}"`));
        expect({
          subject,
          found: mail?.startsWith(
            'mail (MAIL_TRANSPORT=log: not sent, tokens redacted) to=logged@example.com',
          ),
        }).toEqual({ subject, found: true });
        expect(mail).toMatch(/https?:\/\/\S+\?(\S+&)?token=\[redacted\]/);
      }
      expect(mails.find((m) => m.includes('Your sign-in link'))).toContain(
        'http://auth.test/v1/auth/magic-link/verify?token=[redacted]&project_key=',
      );
      // Nothing anywhere in the worker's output that could be a token (43 base64url characters) or a code.
      expect(worker.output()).not.toMatch(/[A-Za-z0-9_-]{43}/);
      expect(sms.join('\n').replace('+14155550142', '')).not.toMatch(/\d{4}/);
    });
  });

  describe('log mode in development (npm start)', () => {
    let worker: AppProcess;
    let t: TestApp;
    let tenant: SeededTenant;
    const logged = (context: string) => loggedBy(worker, context);

    beforeAll(async () => {
      t = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
      await t.reset();
      tenant = await seedTenant(t.app);
      worker = await spawnApp('webhook-worker', {
        NODE_ENV: 'development',
        MAIL_TRANSPORT: 'log',
        SMS_TRANSPORT: 'log',
        LOG_LEVEL: 'info',
        LOG_JSON: 'true',
      });
    });
    afterAll(async () => {
      await t.close();
      await worker.stop();
    });

    it('logs each mail with its link whole, and the link followed from the log signs in (issue 36: local development on the first try)', async () => {
      const u = await signUpUser(t, tenant.projectKey, 'local@example.com');
      const send = await t
        .http()
        .post('/v1/auth/magic-link/send')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('X-Forwarded-For', nextIp())
        .send({ email: u.email });
      expect(send.status).toBe(202);
      await t.app.get(BackgroundTasks).drain();
      const until = Date.now() + 15_000;
      while (logged('MailProcessor').length < 1 && Date.now() < until)
        await new Promise((r) => setTimeout(r, 100));
      const [mail] = logged('MailProcessor');
      expect(mail).toMatch(
        /^mail \(MAIL_TRANSPORT=log: not sent, development: links whole\) to=local@example\.com subject="Your sign-in link for Acme App"/,
      );
      const link = /http:\/\/auth\.test(\/v1\/auth\/magic-link\/verify\?\S+)/.exec(mail ?? '')?.[1];
      expect(link).toMatch(/token=[A-Za-z0-9_-]{43}/);
      const verify = await t.http().get(link!);
      expect(verify.status).toBe(302);
      expect(verify.headers.location).not.toContain('error=');
      expect(String(verify.headers['set-cookie'])).toMatch(/service_session=/);
    });
  });
});
