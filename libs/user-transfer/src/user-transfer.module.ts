import { Module } from '@nestjs/common';
import { MfaFactorsRepository, OAuthIdentitiesRepository } from '@gatehouse/identity';
import { UserExportService } from './export/user-export.service';
import { UserImportService } from './import/user-import.service';

/**
 * The import and the export (CONTRACT §12), for a module that has `IdentityModule` (the control
 * plane's routes, the CLI's file import): the identity services they write through come from it.
 */
@Module({
  providers: [UserImportService, UserExportService, MfaFactorsRepository, OAuthIdentitiesRepository],
  exports: [UserImportService, UserExportService],
})
export class UserTransferServicesModule {}
