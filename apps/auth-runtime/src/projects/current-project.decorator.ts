import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { ResolvedProject } from '@gatehouse/identity';
import type { ProjectRequest } from './project-key.guard';

/** The project the ProjectKeyGuard resolved for this request. */
export const CurrentProject = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ResolvedProject => {
    const project = ctx.switchToHttp().getRequest<ProjectRequest>().project;
    if (!project) throw new Error('CurrentProject used without ProjectKeyGuard');
    return project;
  },
);
