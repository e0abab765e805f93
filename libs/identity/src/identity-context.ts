import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AppConfig } from '@gatehouse/config';
import { DatabaseModule } from '@gatehouse/entities';
import { IdentityModule } from './identity.module';
import { CacheStore, MemoryCacheStore, PlatformConfigModule } from '@gatehouse/platform';

/** A context without HTTP only writes to Postgres; it needs no shared cache, so it gets an in-process one. */
@Global()
@Module({
  providers: [{ provide: CacheStore, useValue: new MemoryCacheStore() }],
  exports: [CacheStore],
})
class LocalCacheModule {}

/** The identity services on Postgres, without HTTP: for the CLI, the first start's bootstrap and the benches' seeds. */
export async function createIdentityContext(config: AppConfig): Promise<INestApplicationContext> {
  @Module({
    imports: [
      PlatformConfigModule.forRoot(config),
      DatabaseModule.forRoot(),
      LocalCacheModule,
      IdentityModule,
    ],
  })
  class IdentityContextModule {}
  return NestFactory.createApplicationContext(IdentityContextModule, {
    logger: false,
    abortOnError: false,
  });
}
