import type { INestApplicationContext } from '@nestjs/common';
import {
  AccessTokensService,
  AllowedOrigins,
  presentedAccessToken,
  ProjectsCache,
  ProjectsRepository,
} from '@gatehouse/identity';
import type { CorsPolicy } from '@gatehouse/http';
import { CacheStore } from '@gatehouse/platform';

/**
 * docs/api-contract.md §10: the control plane serves the admin console. A preflight (which carries no
 * credentials) is answered for an allowed origin of any tenant's console project. A real request
 * is readable only by an allowed origin of the console project of the tenant its token
 * authenticates as: another tenant's console origin, or a request that authenticates as no
 * tenant, gets no `Access-Control-Allow-Origin`.
 */
export function consoleCorsPolicy(app: INestApplicationContext): CorsPolicy {
  const origins = new AllowedOrigins(app.get(ProjectsRepository), app.get(CacheStore));
  const tokens = app.get(AccessTokensService);
  const projects = app.get(ProjectsCache);
  return {
    preflightAllowed: async (origin) => (await origins.ofConsoleProjects()).has(origin),
    requestAllowed: async (req, origin) => {
      const presented = presentedAccessToken(req);
      const verified = presented ? await tokens.verifySignedClaims(presented.token) : null;
      if (!verified) return false;
      const project = await projects.byId(verified.claims.aud);
      return Boolean(
        project?.isConsole &&
        project.tenantId === verified.claims.tid &&
        project.allowedOrigins.includes(origin),
      );
    },
  };
}
