import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `node dist/bench/cpu-profile-summary.js <file.cpuprofile|dir> [--top N]`: where a V8 CPU profile
 * (`node --cpu-prof`, e.g. `npm run bench -- --cpu-prof DIR`) spent the main thread's time, as
 * text: the share by package (our code by folder) and the functions with the most self time.
 * Time on libuv's pool (bcrypt) is not in a V8 profile; the bench's CPU columns count it.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Who a frame belongs to: a package, a folder of ours, Node itself, or V8's pseudo-frames. */
export function ownerOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  const ours = /\/dist\/((?:apps|libs)\/[^/]+(?:\/src\/[^/]+)?)/.exec(url);
  if (ours) return `gatehouse ${ours[1].replace('/src', '')}`;
  return url.replace(/^file:\/\//, '');
}

export function summarise(profile: Profile, top: number): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) =>
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
  );
  let total = 0;
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of self) {
    const { callFrame: f } = byId.get(id)!;
    total += us;
    const owner = ownerOf(f.url, f.functionName);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
    const name = `${f.functionName || '(anonymous)'} ${owner}${f.url ? `:${f.lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  const busy = total - (byOwner.get('(idle)') ?? 0);
  const pct = (us: number) => `${((100 * us) / Math.max(busy, 1)).toFixed(1).padStart(5)} %`;
  const rows = (m: Map<string, number>) =>
    [...m]
      .filter(([k]) => k !== '(idle)' && !k.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => `  ${pct(us)}  ${k}`);
  return [
    `main thread busy ${(busy / 1e6).toFixed(2)} s of ${(total / 1e6).toFixed(2)} s sampled`,
    'by owner (share of busy time):',
    ...rows(byOwner),
    'functions by self time:',
    ...rows(byFunction),
  ].join('\n');
}

function main(): void {
  const [target, ...rest] = process.argv.slice(2);
  if (!target) {
    process.stderr.write('usage: cpu-profile-summary <file.cpuprofile|dir> [--top N]\n');
    process.exit(2);
  }
  const topAt = rest.indexOf('--top');
  const top = topAt >= 0 ? Number(rest[topAt + 1]) : 25;
  const files = statSync(target).isDirectory()
    ? readdirSync(target)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => join(target, f))
    : [target];
  for (const file of files) {
    process.stdout.write(
      `== ${file}\n${summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile, top)}\n\n`,
    );
  }
}

if (require.main === module) main();
