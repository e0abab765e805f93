import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import type { Response } from 'express';
import { refusedBody } from './request-context';

/**
 * Raises the problem `bodyMiddleware` kept for a refused body (invalid JSON, 413, 415…).
 * Authentication guards call it once they have authenticated, so that the project key or admin
 * token is judged first and the body right after (CONTRACT §10).
 */
export function assertBodyAccepted(context: ExecutionContext): void {
  const refused = refusedBody(context.switchToHttp().getResponse<Response>());
  if (refused) throw refused;
}

/**
 * The body check of routes without guards of their own (`/me`, refresh, sign-out, OAuth
 * callbacks, health). On a guarded route the first guard authenticates and then calls
 * `assertBodyAccepted`; an e2e suite sends a refused body to every route of each app.
 * A guard, not an interceptor: Nest runs no RxJS pipeline for a route without interceptors, which
 * `/me` and refresh feel (a global interceptor cost a quarter of `/me`'s server time).
 */
@Injectable()
export class BodyErrorGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const guarded = [context.getHandler(), context.getClass()].some((target) => (Reflect.getMetadata(GUARDS_METADATA, target) as unknown[] | undefined)?.length);
    if (!guarded) assertBodyAccepted(context);
    return true;
  }
}
