import { Module } from '@nestjs/common';
import { HostedPagesController } from './hosted-pages.controller';

/** Serves the hosted sign-in, consent, signed-out and error pages of each OIDC-enabled project (apps/auth-pages builds them). */
@Module({ controllers: [HostedPagesController] })
export class HostedPagesModule {}
