import { Module } from '@nestjs/common';
import { SsoConnectionsRepository } from '@gatehouse/organizations';
import { SsoController } from './sso.controller';

/** `/v1/auth/sso`: sign-in through an organization's enterprise SSO connection (CONTRACT §15). */
@Module({
  controllers: [SsoController],
  providers: [SsoConnectionsRepository],
})
export class SsoModule {}
