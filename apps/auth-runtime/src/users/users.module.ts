import { Module } from '@nestjs/common';
import { UsersRepository } from './users.repository';

/** `users` and `password_credentials`: the repository every feature that reads or changes a user shares. */
@Module({ providers: [UsersRepository], exports: [UsersRepository] })
export class UsersModule {}
