import 'reflect-metadata';

import { DataSource } from 'typeorm';

import { buildDataSourceOptions } from './data-source';

/** Data source for the typeorm CLI (`nx run entities:migration-generate --name=...`). */
export default new DataSource(
  buildDataSourceOptions(
    // eslint-disable-next-line no-restricted-properties -- CLI entry point for the typeorm CLI only
    process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gatehouse',
  ),
);
