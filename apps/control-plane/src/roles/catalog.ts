import type { EntityManager } from 'typeorm';
import type { Project } from '@gatehouse/entities';
import type { ProjectsRepository } from '@gatehouse/identity';
import type { Page, ProjectRolesRepository } from '@gatehouse/organizations';
import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from '../auth/admin.guard';
import { lockedTenantProject, tenantProject } from '../common/tenant-project';

/** The admin's project named in the path (row-locked when `manager` is given), or 404. */
export function adminProject(
  projects: ProjectsRepository,
  admin: AdminContext,
  projectId: string,
  manager?: EntityManager,
): Promise<Project> {
  return manager
    ? lockedTenantProject(projects, manager, admin.tenantId, projectId)
    : tenantProject(projects, admin.tenantId, projectId);
}

/**
 * One page of a list that starts with fixed entries (system permissions, built-in roles) and goes
 * on with stored rows: which fixed entries the page shows, and the window of rows after them.
 */
export function pageAfterFixed<T>(fixed: readonly T[], page: Page): { head: T[]; rows: Page } {
  const head = fixed.slice(page.offset, page.offset + page.limit);
  return {
    head,
    rows: { offset: Math.max(0, page.offset - fixed.length), limit: page.limit - head.length },
  };
}

/**
 * Checks that `role` is a role of the project for a member or an invitation (a custom role's row
 * is then locked FOR SHARE: its deletion waits and sees this holder); 400 on `role` otherwise.
 */
export async function requireAssignableRole(
  roles: ProjectRolesRepository,
  manager: EntityManager,
  projectId: string,
  role: string,
): Promise<void> {
  if (!(await roles.lockAssignable(manager, projectId, role)))
    throw ProblemError.validation({ role: ['is not a role of this project'] });
}
