/** Test support only: test apps and config, seeds, real external parties (SMTP, HTTP receivers), fuzzing. */
export { expectProblem } from './problem';
export { resetState } from './reset';
export {
  APP_ORIGIN,
  APP_REDIRECT,
  createUser,
  mintAccessToken,
  seedTenant,
  type SeededTenant,
} from './seed';
export { startTestApp, testConfig, type AppFactory, type TestApp } from './test-app';
export { startStandaloneTestApp } from './standalone-app';
export { TestClock } from './test-clock';
export { newTestService, TEST_SERVICE_NOW } from './test-service';
export {
  TEST_DATABASE_URL,
  TEST_ENCRYPTION_KEY,
  TEST_ENV,
  TEST_REDIS_URL,
  testEnvWith,
} from './test-env';
export { freePort, freePorts } from './ports';
export { TcpProxy, withPort } from './tcp-proxy';
export { cookiesOf, countRows, nextIp, postAs, signUpUser, type SignedUpUser } from './auth-client';
export { spawnApp, type AppProcess } from './app-process';
export { linkIn, SmtpSink } from './smtp-sink';
export { HttpReceiver, type ReceivedRequest } from './http-receiver';
export { MessageParties } from './message-parties';
export { TxtDnsServer } from './dns-server';
export { eventually } from './eventually';
export { expectEveryRouteToRefuseBadBodies } from './refused-bodies';
export {
  expectRawProblem,
  listenOnLoopback,
  parseRawResponses,
  rawHttp,
  type RawResponse,
} from './raw-http';
export { openApiDisagreements, operationsWithoutSuccessSchema } from './openapi-conformance';
export type { FuzzMode, FuzzOptions, FuzzReport } from './fuzz/fuzz-api';

type FuzzModule = typeof import('./fuzz/fuzz-api');
/**
 * The fuzzing module builds its fast-check arbitraries as it loads, about 1.7 s in a Jest worker:
 * it is loaded on first use, so that the e2e files that never fuzz (every one but two) do not pay.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
const fuzzModule = (): FuzzModule => require('./fuzz/fuzz-api') as FuzzModule;
export const fuzzApi: FuzzModule['fuzzApi'] = (opts) => fuzzModule().fuzzApi(opts);
export const fuzzSettings: FuzzModule['fuzzSettings'] = (seconds) =>
  fuzzModule().fuzzSettings(seconds);
