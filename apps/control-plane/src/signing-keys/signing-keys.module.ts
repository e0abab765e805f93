import { Module } from '@nestjs/common';
import { AdminGuard } from '../auth/admin.guard';
import { ProjectsDataModule } from '../projects-data/projects-data.module';
import { SigningKeysController } from './signing-keys.controller';
import { AdminSigningKeysService } from './signing-keys.service';

@Module({
  imports: [ProjectsDataModule],
  controllers: [SigningKeysController],
  providers: [AdminGuard, AdminSigningKeysService],
})
export class SigningKeysModule {}
