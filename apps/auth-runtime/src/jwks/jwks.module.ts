import { Module } from '@nestjs/common';
import { JwksController } from './jwks.controller';

/** The project's public signing keys (`jwks.json`). */
@Module({ controllers: [JwksController] })
export class JwksModule {}
