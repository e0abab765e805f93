import { Module } from '@nestjs/common';
import { UsersRepository } from '@gatehouse/identity';

/** `users` and `password_credentials`: the repository every feature that reads or changes a user shares (UsersRepository, @gatehouse/identity, which the control plane uses too). */
@Module({ providers: [UsersRepository], exports: [UsersRepository] })
export class UsersModule {}
