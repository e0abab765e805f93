import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig, type AppConfig } from '@gatehouse/config';
import type { Clock } from '@gatehouse/platform';
import { servedOpenApiDocument } from '@gatehouse/http';
import { openApiDisagreements, recordAnswers, type RecordedAnswer } from './openapi-conformance';
import { resetState } from './reset';
import { TestClock } from './test-clock';
import { testEnvWith } from './test-env';

export type AppFactory = (
  config: AppConfig,
  opts: { clock?: Clock; logger?: boolean },
) => Promise<NestExpressApplication>;

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  clock: TestClock;
  dataSource: DataSource;
  /** A supertest client bound to this app's HTTP server. */
  http: () => ReturnType<typeof request>;
  reset: () => Promise<void>;
  close: () => Promise<void>;
}

export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  return loadConfig(testEnvWith(overrides));
}

/** Boots a real app (real Postgres, real Redis) exactly as main.ts does, minus listening on a port. */
export async function startTestApp(
  factory: AppFactory,
  overrides: Record<string, string> = {},
): Promise<TestApp> {
  const config = testConfig(overrides);
  const clock = new TestClock();
  const app = await factory(config, { clock, logger: false });
  const server = app.getHttpServer();
  const dataSource = app.get(DataSource);
  const answers: RecordedAnswer[] = [];
  recordAnswers(server, answers);
  return {
    app,
    config,
    clock,
    dataSource,
    http: () => request(server),
    reset: async () => {
      clock.reset();
      await resetState(dataSource);
    },
    // Every answer the suite received is held against the document the app serves: the documents
    // cannot drift from the code (docs/architecture.md).
    close: async () => {
      const disagreements = openApiDisagreements(servedOpenApiDocument(app), answers);
      await app.close();
      if (disagreements.length)
        throw new Error(
          `answers that disagree with the served OpenAPI document:\n  ${disagreements.join('\n  ')}`,
        );
    },
  };
}
