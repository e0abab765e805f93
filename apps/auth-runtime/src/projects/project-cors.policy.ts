import type { INestApplicationContext } from '@nestjs/common';
import { AllowedOrigins, ProjectsCache, ProjectsRepository } from '@gatehouse/identity';
import type { CorsPolicy } from '@gatehouse/http';
import { CacheStore } from '@gatehouse/platform';
import { presentedProjectKey } from './project-key.guard';

/**
 * docs/api-contract.md §10: preflights are answered for an allowed origin of any project; the real request is
 * then checked against the origins of the project its key names (header, or `project_key`).
 */
export function projectCorsPolicy(app: INestApplicationContext): CorsPolicy {
  const origins = new AllowedOrigins(app.get(ProjectsRepository), app.get(CacheStore));
  const projects = app.get(ProjectsCache);
  return {
    preflightAllowed: async (origin) => (await origins.ofAnyProject()).has(origin),
    requestAllowed: async (req, origin) => {
      const key = presentedProjectKey(req, true);
      const project = key ? await projects.byKey(key) : null;
      return project?.allowedOrigins.includes(origin) ?? false;
    },
  };
}
