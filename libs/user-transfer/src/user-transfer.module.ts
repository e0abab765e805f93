import { Module } from '@nestjs/common';
import { MfaFactorsRepository, OAuthIdentitiesRepository } from '@gatehouse/identity';
import { UserExportService } from './export/user-export.service';
import { ImportBatchRunner } from './import/batch-runner';
import { ImportCredentialWriter } from './import/credential-writer';
import { ImportLineParser } from './import/line-parser';
import { ImportLineWriter } from './import/line-writer';
import { UserImportService } from './import/user-import.service';

/**
 * The import and the export (docs/api-contract.md §12), for a module that has `IdentityModule` (the control
 * plane's routes, the CLI's file import): the identity services they write through come from it.
 */
@Module({
  providers: [
    UserImportService,
    ImportLineParser,
    ImportBatchRunner,
    ImportLineWriter,
    ImportCredentialWriter,
    UserExportService,
    MfaFactorsRepository,
    OAuthIdentitiesRepository,
  ],
  exports: [UserImportService, UserExportService],
})
export class UserTransferServicesModule {}
