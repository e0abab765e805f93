import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ProjectsCache } from '@gatehouse/identity';
import { refusedBody } from '@gatehouse/http';
import { presentedProjectKey, projectKeyRequired } from '../projects/project-key.guard';

/**
 * Refresh's guard. Refresh resolves its project key inside its one PostgreSQL statement, so on the
 * hot path (a request without a refused body) this guard does nothing and costs no round trip.
 * A refused body (invalid JSON, 413, 415) is judged as on every other route: after the project key,
 * which is then resolved here, so a missing, unknown or revoked key is the one 401 of docs/api-contract.md §1.
 */
@Injectable()
export class RefreshKeyGuard implements CanActivate {
  constructor(private readonly projects: ProjectsCache) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (!refusedBody(context.switchToHttp().getResponse<Response>())) return true;
    return this.keyThenBody(context);
  }

  private async keyThenBody(context: ExecutionContext): Promise<boolean> {
    const key = presentedProjectKey(context.switchToHttp().getRequest<Request>(), false);
    if (!key || !(await this.projects.byKey(key))) throw projectKeyRequired();
    return true;
  }
}
