import { Module } from '@nestjs/common';
import { AdminGuard } from '../auth/admin.guard';
import { SigningKeysController } from './signing-keys.controller';
import { AdminSigningKeysService } from './signing-keys.service';

@Module({
  controllers: [SigningKeysController],
  providers: [AdminGuard, AdminSigningKeysService],
})
export class SigningKeysModule {}
