import type { EntityManager } from 'typeorm';
import { isId, type Project } from '@gatehouse/entities';
import type { ProjectsRepository } from '@gatehouse/identity';
import { ProblemError } from '@gatehouse/problem-details';

/** 404 for a project id that is not one of the admin's tenant (or no id at all). */
export const projectNotFound = (): ProblemError =>
  new ProblemError('not-found', { detail: 'No such project.' });

/**
 * The project `id` of the tenant, read through `manager` when given (inside a transaction); 404
 * (`projectNotFound`) for an id that is not an id or names no project of the tenant.
 */
export async function tenantProject(
  projects: ProjectsRepository,
  tenantId: string,
  id: string,
  manager?: EntityManager,
): Promise<Project> {
  const project = isId(id) ? await projects.findInTenant(tenantId, id, manager) : null;
  if (!project) throw projectNotFound();
  return project;
}

/** As `tenantProject`, with the row locked until `manager`'s transaction ends (one writer of what the project owns at a time). */
export async function lockedTenantProject(
  projects: ProjectsRepository,
  manager: EntityManager,
  tenantId: string,
  id: string,
): Promise<Project> {
  const project = isId(id) ? await projects.lockInTenant(manager, tenantId, id) : null;
  if (!project) throw projectNotFound();
  return project;
}
