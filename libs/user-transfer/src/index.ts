/** User transfer (CONTRACT §12, docs/migration.md): the NDJSON import and export the control plane serves, and the vendor converters and file import the CLI runs. */
export { UserTransferServicesModule } from './user-transfer.module';
export { UserImportService, type ImportActor, type ImportOptions, type ImportReport, type OnConflict } from './import/user-import.service';
export { UserExportService } from './export/user-export.service';
export { importUsersFile, type FileImportRequest, type FileImportResult } from './file-import';
export { SOURCE_FORMATS, type SourceFormat } from './formats/source-formats';
