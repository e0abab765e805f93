import { ApiProperty } from '@nestjs/swagger';
import type { ProjectPermission } from '@gatehouse/entities';
import { PaginationResponse } from '@gatehouse/http';

/** A permission roles can grant: the project's own, or a system one (`org:*`). */
export class PermissionResponse {
  @ApiProperty({ example: 'invoices:read' }) key!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ description: 'A system permission: in every project, granted to admin' })
  system!: boolean;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'null for a system permission',
  })
  created_at!: string | null;
}

/** `GET /v1/admin/projects/{id}/permissions`: the system permissions first, then by key. */
export class PermissionListResponse {
  @ApiProperty({ type: [PermissionResponse] }) permissions!: PermissionResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination!: PaginationResponse;
}

export function toPermissionResponse(p: ProjectPermission): PermissionResponse {
  return {
    key: p.key,
    description: p.description,
    system: false,
    created_at: p.createdAt.toISOString(),
  };
}
