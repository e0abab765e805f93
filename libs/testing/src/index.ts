export { expectProblem } from './problem';
export { resetState } from './reset';
export { APP_ORIGIN, APP_REDIRECT, createUser, mintAccessToken, seedTenant, type SeededTenant } from './seed';
export { startTestApp, testConfig, type AppFactory, type TestApp } from './test-app';
export { TestClock } from './test-clock';
export { TEST_DATABASE_URL, TEST_ENCRYPTION_KEY, TEST_ENV, TEST_REDIS_URL } from './test-env';
export { TcpProxy, withPort } from './tcp-proxy';
export { cookiesOf, nextIp, signUpUser, type SignedUpUser } from './auth-client';
