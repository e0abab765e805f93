import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { ProjectsCache, type ResolvedProject } from '@gatehouse/identity';
import { setRequestTenant } from '@gatehouse/http';
import { ProblemError } from '@gatehouse/problem-details';

export interface ProjectRequest extends Request {
  project?: ResolvedProject;
}

export const PROJECT_KEY_HEADER = 'x-service-project-key';

/** Missing, malformed, unknown and revoked keys: one 401 body. */
export const projectKeyRequired = () =>
  new ProblemError('unauthenticated', { detail: 'A valid project key is required.' });

/** Reads the project key from the header, or from `?project_key=` for browser navigations. */
export function presentedProjectKey(req: Request, allowQuery: boolean): string | null {
  const header = req.headers[PROJECT_KEY_HEADER];
  if (typeof header === 'string' && header.length > 0) return header.trim();
  if (allowQuery && typeof req.query.project_key === 'string') return req.query.project_key;
  return null;
}

/**
 * docs/api-contract.md §1: every `/v1/auth/*` call names its project with a publishable key or a live API key
 * secret. Missing, unknown and revoked keys get the same 401 body. Then the body is judged, unless
 * a session guard follows (it judges the body after the session).
 */
@Injectable()
export class ProjectKeyGuard implements CanActivate {
  constructor(private readonly projects: ProjectsCache) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ProjectRequest>();
    const key = presentedProjectKey(req, req.method === 'GET');
    const project = key ? await this.projects.byKey(key) : null;
    if (!project) throw projectKeyRequired();
    req.project = project;
    setRequestTenant(req, project.tenantId);
    return true;
  }
}
