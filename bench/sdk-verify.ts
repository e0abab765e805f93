import { join } from 'node:path';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWTVerifyOptions } from 'jose';

/**
 * `npm run bench:sdk`: @gatehouse/server's `verifyAccessToken` (the built package, as an API
 * loads it) with a warm key cache, beside jose's own `jwtVerify` with the same key and options in
 * the same process, one core, interleaved rounds. The target: ≥ 0.9 of jose.
 */
/** What the bench uses of the package (its own types need the DOM library, which the services' build leaves out). */
interface ServerPackage {
  createGatehouse(options: {
    authUrl: string;
    projectId: string;
    projectKey: string;
    fetch: typeof fetch;
  }): { verifyAccessToken(token: string): Promise<unknown> };
}

const ROOT = join(__dirname, '..', '..');
const ROUNDS = 5;
const ROUND_MS = Number(process.argv[2] ?? 2000);
const AUTH = 'https://auth.example.test';
const PROJECT = 'prj_bench';

async function tokens(alg: 'ES256' | 'RS256', count: number) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: `k-${alg}`, alg, use: 'sig' };
  const now = Math.floor(Date.now() / 1000);
  const list = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      new SignJWT({
        iss: `${AUTH}/v1/projects/${PROJECT}`,
        aud: PROJECT,
        sub: `usr_${i}`,
        sid: `ses_${i}`,
        tid: 'ten',
        adm: false,
        auth_time: now,
        iat: now,
        exp: now + 3600,
      })
        .setProtectedHeader({ alg, kid: jwk.kid, typ: 'JWT' })
        .sign(privateKey),
    ),
  );
  return { jwk, publicKey, list };
}

/** Verifications per second of `verify` over the tokens, for `ms`. */
async function rate(
  verify: (token: string) => Promise<unknown>,
  list: string[],
  ms: number,
): Promise<number> {
  let n = 0;
  const start = process.hrtime.bigint();
  const until = start + BigInt(ms) * 1_000_000n;
  while (process.hrtime.bigint() < until) {
    for (let i = 0; i < 50; i += 1) await verify(list[(n + i) % list.length]);
    n += 50;
  }
  return n / (Number(process.hrtime.bigint() - start) / 1e9);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the built package (npm run build:sdk server), as a CommonJS API loads it
  const server = require(join(ROOT, 'packages/server/dist/index.js')) as ServerPackage;
  for (const alg of ['ES256', 'RS256'] as const) {
    const { jwk, publicKey, list } = await tokens(alg, 500);
    const fetchKeys = (async () => Response.json({ keys: [jwk] })) as typeof fetch;
    const gatehouse = server.createGatehouse({
      authUrl: AUTH,
      projectId: PROJECT,
      projectKey: 'pk_bench',
      fetch: fetchKeys,
    });
    const options: JWTVerifyOptions = {
      algorithms: ['ES256', 'RS256'],
      issuer: `${AUTH}/v1/projects/${PROJECT}`,
      audience: PROJECT,
      clockTolerance: 5,
      requiredClaims: ['sub', 'exp', 'iat'],
    };
    const joseVerify = (token: string) => jwtVerify(token, publicKey, options);
    const ours = (token: string) => gatehouse.verifyAccessToken(token);
    await rate(joseVerify, list, 300); // warm-up: JIT and the key cache
    await rate(ours, list, 300);
    const j: number[] = [];
    const g: number[] = [];
    for (let r = 0; r < ROUNDS; r += 1) {
      // Interleaved, alternating which goes first, so drift on a shared machine hits both alike.
      if (r % 2 === 0) {
        j.push(await rate(joseVerify, list, ROUND_MS));
        g.push(await rate(ours, list, ROUND_MS));
      } else {
        g.push(await rate(ours, list, ROUND_MS));
        j.push(await rate(joseVerify, list, ROUND_MS));
      }
    }
    const ratio = median(g.map((x, i) => x / j[i]));
    console.log(
      `${alg}: @gatehouse/server ${median(g).toFixed(0)}/s, jose jwtVerify ${median(j).toFixed(0)}/s (one core, medians of ${ROUNDS} rounds of ${ROUND_MS} ms); ratio ${ratio.toFixed(3)} (target ≥ 0.9)`,
    );
    console.log(
      `  rounds: ours ${g.map((x) => x.toFixed(0)).join(', ')}; jose ${j.map((x) => x.toFixed(0)).join(', ')}`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
