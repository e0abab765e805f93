import { Module } from '@nestjs/common';
import { SsoConnectionsRepository } from '@gatehouse/organizations';
import { SamlMetadataController } from './saml-metadata.controller';
import { SsoController } from './sso.controller';

/** `/v1/auth/sso`: sign-in through an organization's enterprise SSO connection (CONTRACT §15). */
@Module({
  controllers: [SsoController, SamlMetadataController],
  providers: [SsoConnectionsRepository],
})
export class SsoModule {}
