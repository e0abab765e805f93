import { Module } from '@nestjs/common';
import { OneTimeTokensRepository } from '@gatehouse/identity';

/** `one_time_tokens`: mailed links, MFA tokens and their single use. */
@Module({ providers: [OneTimeTokensRepository], exports: [OneTimeTokensRepository] })
export class OneTimeTokensModule {}
