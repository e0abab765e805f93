import { ApiProperty } from '@nestjs/swagger';

/** `pagination` of every admin list (docs/api-contract.md §6). */
export class PaginationResponse {
  @ApiProperty({ type: 'integer', minimum: 1 }) page!: number;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100 }) limit!: number;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Items matching the query, on every page',
  })
  total!: number;
}
