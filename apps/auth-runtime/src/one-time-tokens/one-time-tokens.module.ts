import { Module } from '@nestjs/common';
import { OneTimeTokensRepository } from './one-time-tokens.repository';

/** `one_time_tokens`: mailed links, MFA tokens and their single use. */
@Module({ providers: [OneTimeTokensRepository], exports: [OneTimeTokensRepository] })
export class OneTimeTokensModule {}
