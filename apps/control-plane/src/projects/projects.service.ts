import { Injectable } from '@nestjs/common';
import { ProblemError } from '@gatehouse/problem-details';
import { isId } from '../common/ids';
import { paginated, type Page } from '../common/pagination';
import { toProjectResponse } from './project.response';
import { ProjectsRepository } from './projects.repository';

@Injectable()
export class ProjectsService {
  constructor(private readonly projects: ProjectsRepository) {}

  async list(tenantId: string, page: Page) {
    const [rows, total] = await this.projects.list(tenantId, page);
    return paginated('projects', rows.map(toProjectResponse), page, total);
  }

  async get(tenantId: string, id: string) {
    const project = isId(id) ? await this.projects.findInTenant(tenantId, id) : null;
    if (!project) throw new ProblemError('not-found', { detail: 'No such project.' });
    return toProjectResponse(project);
  }
}
