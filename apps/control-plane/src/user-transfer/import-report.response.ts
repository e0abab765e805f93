import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ImportCounts {
  @ApiProperty() created!: number;
  @ApiProperty() updated!: number;
  @ApiProperty() skipped!: number;
  @ApiProperty() conflicts!: number;
  @ApiProperty() rejected!: number;
}

export class ImportLineError {
  @ApiProperty({ description: 'Line number, from 1' }) line!: number;
  @ApiProperty({
    description: 'A problem slug: validation-error, invalid-json, conflict, payload-too-large',
  })
  type!: string;
  @ApiProperty() detail!: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Field (dotted path) → messages',
  })
  errors?: Record<string, string[]>;
}

/** The import report (docs/api-contract.md §12). */
export class ImportReportResponse {
  @ApiProperty({ type: ImportCounts }) counts!: ImportCounts;
  @ApiProperty({ type: [ImportLineError], description: 'Refused lines (the first 1000)' })
  errors!: ImportLineError[];
}
