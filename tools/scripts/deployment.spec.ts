import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ENV_KEYS } from '@gatehouse/config';

const root = join(__dirname, '..', '..');
const read = (p: string) => readFileSync(join(root, p), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  healthcheck?: { test?: string[]; disable?: boolean };
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
}

describe('docker/compose.yml', () => {
  const compose = parse(read('docker/compose.yml'), { merge: true }) as {
    services: Record<string, Service>;
  };
  const apps = ['auth-runtime', 'control-plane', 'webhook-worker'];

  it('has postgres, redis, a one-shot migrate service and the three apps', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'auth-runtime',
      'control-plane',
      'migrate',
      'postgres',
      'redis',
      'webhook-worker',
    ]);
  });

  it('gives every service an image or a build', () => {
    for (const [name, s] of Object.entries(compose.services))
      expect({ name, ok: Boolean(s.image ?? s.build) }).toEqual({ name, ok: true });
  });

  it('health-checks every long-running service, the apps on /health/ready', () => {
    for (const [name, s] of Object.entries(compose.services)) {
      if (name === 'migrate') continue;
      expect(s.healthcheck?.test?.length).toBeGreaterThan(0);
      if (apps.includes(name)) expect(s.healthcheck!.test!.join(' ')).toContain('/health/ready');
    }
  });

  it('gives the apps and migrate the required environment and orders them after the migration', () => {
    for (const name of [...apps, 'migrate']) {
      const env = compose.services[name].environment!;
      for (const key of ['DATABASE_URL', 'REDIS_URL', 'ENCRYPTION_KEY', 'NODE_ENV'])
        expect({ name, key, set: Boolean(env[key]) }).toEqual({ name, key, set: true });
    }
    for (const name of apps)
      expect(compose.services[name].depends_on?.migrate?.condition).toBe(
        'service_completed_successfully',
      );
  });

  it('passes the mail and SMS delivery settings to the apps, which need them in production', () => {
    for (const name of apps) {
      const env = compose.services[name].environment!;
      expect(env.NODE_ENV).toBe('production');
      for (const key of ['SMTP_URL', 'MAIL_TRANSPORT', 'SMS_GATEWAY_URL', 'SMS_TRANSPORT'])
        expect({ name, key, passed: env[key] }).toEqual({ name, key, passed: `\${${key}:-}` });
    }
  });
});

describe('.env.example and README', () => {
  it('list every configuration variable', () => {
    const example = read('.env.example');
    const readme = read('README.md');
    for (const key of ENV_KEYS) {
      expect({ key, inExample: new RegExp(`^${key}=`, 'm').test(example) }).toEqual({
        key,
        inExample: true,
      });
      expect({ key, inReadme: readme.includes(`\`${key}\``) }).toEqual({ key, inReadme: true });
    }
  });
});
