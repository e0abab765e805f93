import type { CanActivate, ExecutionContext, INestApplication } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import type { Response } from 'express';
import { refusedBody } from './request-context';

/**
 * Raises the problem `bodyMiddleware` kept for a refused body (invalid JSON, 413, 415…). It runs as
 * the last guard of every route, so the route's own guards (the project key, then the session or
 * admin token) are judged before the body (docs/api-contract.md §10), and a route without guards judges the
 * body first. A guard, not an interceptor: Nest runs no RxJS pipeline for a route without
 * interceptors, which `/me` and refresh feel (a global interceptor cost a quarter of `/me`'s
 * server time).
 */
class BodyAcceptedGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const refused = refusedBody(context.switchToHttp().getResponse<Response>());
    if (refused) throw refused;
    return true;
  }
}

/** One instance: Nest uses a guard instance as it is (a class would need registering as a provider). */
const BODY_ACCEPTED = new BodyAcceptedGuard();

/**
 * Appends the body check to the guards of every route of every controller of the app, before the
 * routes are registered (`app.init()`), so that no guard or route has to remember it. Idempotent:
 * tests build the same controllers into many apps of one process.
 */
export function judgeBodiesAfterRouteGuards(app: INestApplication): void {
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const prototype = (wrapper.metatype as { prototype?: Record<string, unknown> } | null)
        ?.prototype;
      if (!prototype) continue;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const own = (Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[] | undefined) ?? [];
        if (own.at(-1) !== BODY_ACCEPTED)
          Reflect.defineMetadata(GUARDS_METADATA, [...own, BODY_ACCEPTED], handler);
      }
    }
  }
}
