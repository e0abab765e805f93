import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AppConfig } from '@gatehouse/config';
import { DatabaseModule } from '@gatehouse/entities';
import { IdentityModule } from '@gatehouse/identity';
import { CacheStore, MemoryCacheStore, PlatformConfigModule } from '@gatehouse/platform';

/** The CLI only writes to Postgres; it needs no shared cache, so it gets an in-process one. */
@Global()
@Module({ providers: [{ provide: CacheStore, useValue: new MemoryCacheStore() }], exports: [CacheStore] })
class CliCacheModule {}

export async function createCliContext(config: AppConfig): Promise<INestApplicationContext> {
  @Module({ imports: [PlatformConfigModule.forRoot(config), DatabaseModule.forRoot(), CliCacheModule, IdentityModule] })
  class CliModule {}
  return NestFactory.createApplicationContext(CliModule, { logger: false, abortOnError: false });
}
