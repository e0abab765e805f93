import type { Organization } from '@gatehouse/entities';

export function toOrganizationResponse(o: Organization) {
  return {
    id: o.id,
    project_id: o.projectId,
    name: o.name,
    slug: o.slug,
    metadata: o.metadata,
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
  };
}
