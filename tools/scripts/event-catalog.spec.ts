import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { WEBHOOK_EVENT_TYPES } from '@gatehouse/webhooks';

const root = join(__dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return name === 'test' || name === 'node_modules' ? [] : sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('event catalog', () => {
  const files = [...sources(join(root, 'apps')), ...sources(join(root, 'libs'))].filter(
    (f) => !f.endsWith('webhook-events.ts'),
  );
  const text = files.map((f) => readFileSync(f, 'utf8')).join('\n');
  const emitted = new Set<string>(
    [...text.matchAll(/action: '([a-z_]+(?:\.[a-z_]+)+)'/g)].map((m) => m[1]),
  );

  it('lets webhooks subscribe to every event the code records', () => {
    const missing = [...emitted].filter(
      (a) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(a),
    );
    expect(missing).toEqual([]);
  });

  it('offers no event type the code never records (webhook.test aside)', () => {
    const never = WEBHOOK_EVENT_TYPES.filter(
      (t) => t !== 'webhook.test' && !text.includes(`'${t}'`),
    );
    expect(never).toEqual([]);
  });
});
