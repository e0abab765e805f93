import {
  applyDecorators,
  Controller,
  Get,
  HttpStatus,
  Inject,
  Res,
  ServiceUnavailableException,
} from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  HealthCheckService,
  HealthIndicatorService,
  type HealthCheckResult,
} from '@nestjs/terminus';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { CacheStore } from '../cache/cache-store';
import { HealthDownResponse, HealthLiveResponse, HealthUpResponse } from './health.response';

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('timed out')), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** The two answers of a checking endpoint: both Terminus bodies, the 503 as JSON, not a problem. */
const ApiHealthChecks = () =>
  applyDecorators(
    ApiOkResponse({ type: HealthUpResponse, description: 'Database and cache up' }),
    ApiServiceUnavailableResponse({
      type: HealthDownResponse,
      description:
        'A dependency down (named in `error`) or shutting down; `application/json`, not a problem',
    }),
  );

/** `/health/live`, `/health/ready` and `/health` (docs/api-contract.md §8): Terminus bodies, no versions or hosts. */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly dataSource: DataSource,
    private readonly cache: CacheStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: 200 while the process runs' })
  @ApiOkResponse({ type: HealthLiveResponse })
  live(): HealthLiveResponse {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: database and cache reachable (503 otherwise)' })
  @ApiHealthChecks()
  ready(@Res() res: Response): Promise<void> {
    return this.run(res);
  }

  @Get()
  @ApiOperation({ summary: 'Full health: database and cache checks (503 when one is down)' })
  @ApiHealthChecks()
  full(@Res() res: Response): Promise<void> {
    return this.run(res);
  }

  private async run(res: Response): Promise<void> {
    const timeout = this.config.http.dependencyTimeoutMs;
    let result: HealthCheckResult;
    let status: number = HttpStatus.OK;
    try {
      result = await this.health.check([
        () => this.probe('database', () => this.dataSource.query('SELECT 1'), timeout),
        () => this.probe('cache', () => this.cache.ping(), timeout),
      ]);
    } catch (err) {
      if (!(err instanceof ServiceUnavailableException)) throw err;
      result = err.getResponse() as HealthCheckResult;
      status = HttpStatus.SERVICE_UNAVAILABLE;
    }
    res.status(status).json(result);
  }

  private async probe<K extends string>(key: K, op: () => Promise<unknown>, timeout: number) {
    const session = this.indicators.check(key);
    try {
      if (!this.dataSource.isInitialized && key === 'database')
        return session.down({ message: 'not connected' });
      await withTimeout(op(), timeout);
      return session.up();
    } catch {
      return session.down({ message: 'unreachable' });
    }
  }
}
