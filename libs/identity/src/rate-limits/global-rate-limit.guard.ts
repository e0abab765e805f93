import { Inject, Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { getOptionsToken, getStorageToken, ThrottlerGuard, type ThrottlerModuleOptions, type ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerRequest } from '@nestjs/throttler/dist/throttler.guard.interface';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { ProblemError } from '@gatehouse/problem-details';
import { setRateLimitHeaders } from './rate-limit-headers';

/**
 * The spec's global limit (1000 requests a minute per client IP) on every route but `/health*`,
 * counted in the shared store. Endpoint limits (sign-in, sign-up, forgot) run later, after body
 * validation, through RateLimitsService and overwrite the headers with their own numbers.
 */
@Injectable()
export class GlobalRateLimitGuard extends ThrottlerGuard {
  constructor(
    @Inject(getOptionsToken()) options: ThrottlerModuleOptions,
    @Inject(getStorageToken()) storage: ThrottlerStorage,
    reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super(options, storage, reflector);
  }

  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    return !this.config.http.rateLimitsEnabled || req.path.startsWith('/health') || req.path.startsWith('/metrics');
  }

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    return (req as unknown as Request).ip ?? 'unknown';
  }

  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, generateKey, getTracker } = props;
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const tracker = await getTracker(req, context);
    const key = generateKey(context, tracker, throttler.name ?? 'global');
    const record = await this.storageService.increment(key, ttl, limit, 0, throttler.name ?? 'global');
    setRateLimitHeaders(res, { limit, remaining: limit - record.totalHits, resetSeconds: record.timeToExpire });
    if (record.totalHits > limit) {
      throw new ProblemError('rate-limited', {
        detail: 'Too many requests; try again later.',
        headers: { 'Retry-After': String(record.timeToExpire) },
      });
    }
    return true;
  }
}
