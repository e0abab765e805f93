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
export {
  fuzzApi,
  fuzzSettings,
  type FuzzMode,
  type FuzzOptions,
  type FuzzReport,
} from './fuzz/fuzz-api';
