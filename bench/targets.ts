import { REFRESH_COOKIE } from './client';
import { setCookieValue, type Target } from './load';
import { BENCH_PASSWORD, type Seeded } from './seed';

/**
 * The two shapes a bench run measures (`--shape today|production|both`). `today`: rate limits
 * off, `--connections` (10), one client address. `production` (issue 37's table): rate limits on,
 * 32 connections, the server trusting loopback as its proxy, a new client address for every
 * sign-up and sign-in (so no route limit refuses the bench) and 4,096 addresses in turn for `/me`
 * and refresh (each stays far below 1000 a minute).
 */
export type Shape = 'today' | 'production';
export const PRODUCTION = {
  connections: 32,
  addresses: 4096,
  targets: { signIn: 0.9, signUp: 0.85, me: 0.6 },
} as const;

let addressCounter = Math.floor(Math.random() * 2 ** 20);
/** A client address not used before in this run (10.0.0.0/8). */
export const freshAddress = () => {
  const n = addressCounter++ % 2 ** 24;
  return `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}`;
};
let poolCounter = 0;
/** One of PRODUCTION.addresses addresses, in turn (172.16.0.0/12). */
export const pooledAddress = () => {
  const n = poolCounter++ % PRODUCTION.addresses;
  return `172.16.${n >> 8}.${n & 255}`;
};

/**
 * The load of each endpoint: sign-up (a new email per request), sign-in (the seeded users in
 * turn), `/me` (a bearer token) and refresh (each request presents a current refresh token from
 * `pool` and puts back the rotated successor), with the shape's client addresses.
 */
export function benchTargets(o: {
  base: string;
  seeded: Seeded;
  runId: string;
  shape: Shape;
  meToken: string;
  pool: string[];
}) {
  const { base, seeded, runId, shape, meToken, pool } = o;
  const production = shape === 'production';
  const json = { 'content-type': 'application/json', 'x-service-project-key': seeded.projectKey };
  /** The client address header of one request of the load, in the production shape. */
  const from = (address: () => string) =>
    production ? { dynamicHeaders: () => ({ 'x-forwarded-for': address() }) } : {};
  let n = 0;
  const signUpTarget: Target = {
    url: `${base}/v1/auth/sign-up`,
    method: 'POST',
    headers: json,
    ...from(freshAddress),
    body: () =>
      JSON.stringify({
        email: `user-${runId}-${shape}-${n++}@bench.example.com`,
        password: BENCH_PASSWORD,
      }),
    verifyBody: (b) => b.includes('"access_token"'),
  };
  const signInTarget: Target = {
    url: `${base}/v1/auth/sign-in`,
    method: 'POST',
    headers: json,
    ...from(freshAddress),
    body: () =>
      JSON.stringify({
        identifier: seeded.signInUsers[n++ % seeded.signInUsers.length].email,
        password: BENCH_PASSWORD,
      }),
    verifyBody: (b) => b.includes('"access_token"'),
  };
  const meTarget: Target = {
    url: `${base}/v1/auth/me`,
    method: 'GET',
    headers: { 'x-service-project-key': seeded.projectKey, authorization: `Bearer ${meToken}` },
    ...from(pooledAddress),
    verifyBody: (b) => b.includes('"active_sessions"'),
  };
  // Each request presents a refresh token that is current: it takes one from the pool and puts
  // back the rotated successor from Set-Cookie. A failed request loses its chain (and shows as an error).
  const refreshTarget: Target = {
    url: `${base}/v1/auth/refresh`,
    method: 'POST',
    headers: { 'x-service-project-key': seeded.projectKey },
    dynamicHeaders: () => ({
      cookie: `${REFRESH_COOKIE}=${pool.shift() ?? 'pool-empty'}`,
      ...(production ? { 'x-forwarded-for': pooledAddress() } : {}),
    }),
    onResponse: (status, headers) => {
      const next = setCookieValue(headers, REFRESH_COOKIE);
      if (status === 200 && next) pool.push(next);
    },
    verifyBody: (b) => b.includes('"access_token"'),
  };

  return { signUpTarget, signInTarget, meTarget, refreshTarget };
}
