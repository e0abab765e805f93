import { Module } from '@nestjs/common';
import { EventRecorder, MfaFactorsRepository, OAuthIdentitiesRepository, ProjectsRepository, UsersRepository } from '@gatehouse/identity';
import { AdminGuard } from '../auth/admin.guard';
import { UserTransferController } from './user-transfer.controller';
import { UserExportService } from './user-export.service';
import { UserImportService } from './user-import.service';

/** User import and export (CONTRACT §12, docs/migration.md). */
@Module({
  controllers: [UserTransferController],
  providers: [AdminGuard, UserImportService, UserExportService, UsersRepository, MfaFactorsRepository, OAuthIdentitiesRepository, ProjectsRepository, EventRecorder],
})
export class UserTransferModule {}
