import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import type { Response } from 'express';
import { refusedBody } from './request-context';

/** The route's own guards in the order Nest runs them: the controller's, then the handler's. */
function routeGuards(context: ExecutionContext): unknown[] {
  return [context.getClass(), context.getHandler()].flatMap((target) => (Reflect.getMetadata(GUARDS_METADATA, target) as unknown[] | undefined) ?? []);
}

/**
 * Raises the problem `bodyMiddleware` kept for a refused body (invalid JSON, 413, 415…) once the
 * route's authentication has been judged. Every authenticating guard calls it as its last step;
 * only the route's last guard acts, so the project key, then the session or admin token, are
 * judged before the body (CONTRACT §10).
 */
export function assertBodyAccepted(context: ExecutionContext, guard: CanActivate): void {
  const last = routeGuards(context).at(-1);
  if (last === guard || last === guard.constructor) raiseRefusedBody(context);
}

function raiseRefusedBody(context: ExecutionContext): void {
  const refused = refusedBody(context.switchToHttp().getResponse<Response>());
  if (refused) throw refused;
}

/**
 * The body check of routes without guards of their own (`/me`, refresh, sign-out, OAuth
 * callbacks, health); a guarded route's last guard calls `assertBodyAccepted`. An e2e suite sends
 * a refused body to every route of each app.
 * A guard, not an interceptor: Nest runs no RxJS pipeline for a route without interceptors, which
 * `/me` and refresh feel (a global interceptor cost a quarter of `/me`'s server time).
 */
@Injectable()
export class BodyErrorGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (routeGuards(context).length === 0) raiseRefusedBody(context);
    return true;
  }
}
