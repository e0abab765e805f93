import { Module } from '@nestjs/common';
import { ProjectsRepository } from '@gatehouse/identity';
import { UserTransferServicesModule } from '@gatehouse/user-transfer';
import { AdminGuard } from '../auth/admin.guard';
import { UserTransferController } from './user-transfer.controller';

/** User import and export (docs/api-contract.md §12, docs/migration.md): the routes over `@gatehouse/user-transfer`. */
@Module({
  imports: [UserTransferServicesModule],
  controllers: [UserTransferController],
  providers: [AdminGuard, ProjectsRepository],
})
export class UserTransferModule {}
