import type { INestApplicationContext } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import {
  AllowedOrigins,
  authOriginOf,
  projectOrigins,
  ProjectsCache,
  ProjectsRepository,
} from '@gatehouse/identity';
import type { CorsPolicy } from '@gatehouse/http';
import { CacheStore } from '@gatehouse/platform';
import { presentedProjectKey } from './project-key.guard';

/**
 * docs/api-contract.md §10: preflights are answered for an allowed origin of any project; the real request is
 * then checked against the origins of the project its key names (header, or `project_key`), which
 * include the auth runtime's own origin when the project's OpenID Connect provider is on (the hosted
 * pages call from there, same-origin, so this only matters for the headers a response carries).
 */
export function projectCorsPolicy(app: INestApplicationContext): CorsPolicy {
  const origins = new AllowedOrigins(app.get(ProjectsRepository), app.get(CacheStore));
  const projects = app.get(ProjectsCache);
  const authOrigin = authOriginOf(app.get<AppConfig>(APP_CONFIG).http.publicAuthUrl);
  return {
    preflightAllowed: async (origin) => (await origins.ofAnyProject()).has(origin),
    requestAllowed: async (req, origin) => {
      const key = presentedProjectKey(req, true);
      const project = key ? await projects.byKey(key) : null;
      return project ? projectOrigins(project, authOrigin).includes(origin) : false;
    },
  };
}
