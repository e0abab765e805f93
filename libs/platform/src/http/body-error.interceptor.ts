import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import type { Observable } from 'rxjs';
import { refusedBody } from './request-context';

/**
 * Raises the problem `bodyMiddleware` kept for a refused body (invalid JSON, 413, 415…). Global
 * interceptors run after every guard and before the pipes, so authentication (the project key,
 * an admin token) is judged first and body validation right after.
 */
@Injectable()
export class BodyErrorInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const refused = refusedBody(context.switchToHttp().getResponse<Response>());
    if (refused) throw refused;
    return next.handle();
  }
}
