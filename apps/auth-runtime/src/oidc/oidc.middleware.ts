import type { INestApplicationContext } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { projectOidcSettings, ProjectsCache, requestMeta } from '@gatehouse/identity';
import { CacheStore, PlatformError } from '@gatehouse/platform';
import { rateLimitClient } from '@gatehouse/http';
import { resumeDecision } from './oidc-grant-policy';
import { OIDC_ROUTES } from './oidc-provider-configuration';
import { OidcProviders } from './oidc-providers.service';
import { newOidcRequestState, oidcRequestState } from './oidc-request-state';
import { OidcStore } from './oidc-store';

const REGISTRATIONS_PER_WINDOW = 20;
const REGISTRATION_WINDOW_MS = 3_600_000;
const PROJECT_PATH = /^\/v1\/projects\/([^/]+)(\/.*)?$/;
/** RFC 8414 §3: the metadata of issuer `{base}/v1/projects/{id}` is also at `{base}/.well-known/oauth-authorization-server/v1/projects/{id}`. */
const RFC8414_PATH = /^\/\.well-known\/oauth-authorization-server\/v1\/projects\/([^/]+)\/?$/;
/** The resume route as the provider's router matches it (any case, an optional trailing slash); the real check is in OidcStore. */
const RESUME_PATH = new RegExp(`^${OIDC_ROUTES.authorization}/([^/]+)/?$`, 'i');

/**
 * Mounts each project's OpenID Connect provider under its issuer, `/v1/projects/{id}` (before the
 * body parser: the provider reads its own bodies). `/v1/projects/{id}/pages/*` stays with the app
 * (the hosted pages). A project whose provider is off, or that does not exist, is 404 `not-found`.
 * Endpoint URLs are built from PUBLIC_AUTH_URL, never from the request's Host header. Resuming an
 * interaction needs the completion value the interaction API gave whoever completed it (so a
 * browser holding someone else's interaction cookie cannot collect the result).
 */
export function oidcMiddleware(app: INestApplicationContext) {
  const config = app.get<AppConfig>(APP_CONFIG);
  const projects = app.get(ProjectsCache);
  const providers = app.get(OidcProviders);
  const store = app.get(OidcStore);
  const cache = app.get(CacheStore);
  const publicUrl = new URL(config.http.publicAuthUrl);

  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const path = req.path;
    let projectId: string;
    let rest: string;
    const rfc8414 = RFC8414_PATH.exec(path);
    if (rfc8414) {
      projectId = rfc8414[1];
      rest = '/.well-known/openid-configuration';
    } else {
      const m = PROJECT_PATH.exec(path);
      if (!m) return next();
      projectId = m[1];
      rest = m[2] ?? '/';
      if (rest === '/pages' || rest.startsWith('/pages/')) return next();
    }
    const known =
      rest === '/.well-known/openid-configuration' ||
      Object.values(OIDC_ROUTES).some((r) => rest === r || rest.startsWith(`${r}/`));
    try {
      const project = await projects.byId(projectId);
      if (!project || !projectOidcSettings(project.settings).enabled) {
        return next(
          new PlatformError(
            'not-found',
            'No OpenID Connect provider here: the project does not exist or has not enabled it.',
          ),
        );
      }
      if (!known)
        return next(
          new PlatformError(
            'not-found',
            'No such endpoint; discovery lists every endpoint of the provider.',
          ),
        );
      if (req.method === 'POST' && rest === OIDC_ROUTES.registration) {
        // Open registration writes a client row per request: a few per address and hour.
        const { count, ttlMs } = await cache.increment(
          `oidc:register:${project.id}:${rateLimitClient(req.ip)}`,
          REGISTRATION_WINDOW_MS,
        );
        if (count > REGISTRATIONS_PER_WINDOW) {
          res.setHeader('Retry-After', String(Math.ceil(ttlMs / 1000)));
          return next(
            new PlatformError(
              'rate-limited',
              'Too many client registrations from this address; try again later.',
            ),
          );
        }
      }
      const { callback } = await providers.forProject(project);
      const state = newOidcRequestState(requestMeta(req));
      const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
      const resume = req.method === 'GET' || req.method === 'HEAD' ? RESUME_PATH.exec(rest) : null;
      await oidcRequestState.run(state, async () => {
        if (resume) {
          // A friendly answer for the plain case (the stored interaction read as it is); OidcStore
          // applies the same decision on every other way in, as the provider reads the interaction.
          const interaction = await store.storedInteraction(project.id, safeDecode(resume[1]));
          const decision = resumeDecision(
            interaction?.result,
            typeof req.query.completion === 'string' ? req.query.completion : '',
          );
          if (decision.kind === 'refused') {
            const target = new URL(`${providers.issuer(project.id)}/pages/error`);
            target.searchParams.set('error', 'access_denied');
            target.searchParams.set(
              'error_description',
              'This sign-in was completed in another browser.',
            );
            res.redirect(303, target.href);
            return;
          }
          // A sign-in as another account starts a new provider session (the provider reads its session before the interaction).
          if (decision.kind === 'accepted') state.freshSession = decision.fresh;
        }
        // The provider sees the issuer's path as its mount point and the public origin as its host.
        req.originalUrl = `/v1/projects/${project.id}${rest}${query}`;
        req.url = `${rest}${query}`;
        req.headers['x-forwarded-host'] = publicUrl.host;
        req.headers['x-forwarded-proto'] = publicUrl.protocol.replace(':', '');
        await callback(req, res);
      });
    } catch (err) {
      next(err);
    }
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
