/** User transfer (docs/api-contract.md §12, docs/migration.md): the NDJSON import and export the control plane serves, and the vendor converters and file import the CLI runs. */
export { UserTransferServicesModule } from './user-transfer.module';
export { UserImportService, type ImportOptions } from './import/user-import.service';
export type { ImportReport } from './import/import-report';
export type { ImportActor } from './import/line-writer';
export type { OnConflict } from './import/conflict-policy';
export { UserExportService } from './export/user-export.service';
export { importUsersFile, type FileImportRequest, type FileImportResult } from './file-import';
export { SOURCE_FORMATS, type SourceFormat } from './formats/source-formats';
