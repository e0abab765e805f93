import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** `GET /health/live`. */
export class HealthLiveResponse {
  @ApiProperty({ enum: ['ok'] }) status!: 'ok';
}

/** One dependency as Terminus reports it; never a version, host or credential. */
class DependencyHealth {
  @ApiProperty({ enum: ['up', 'down'] }) status!: 'up' | 'down';
  @ApiPropertyOptional({ enum: ['unreachable', 'not connected'], description: 'Only when down' })
  message?: string;
}

/** Some of the checked dependencies (`info`: those up; `error`: those down). */
class SomeDependencies {
  @ApiPropertyOptional({ type: DependencyHealth, description: 'PostgreSQL' })
  database?: DependencyHealth;
  @ApiPropertyOptional({ type: DependencyHealth, description: 'Redis' }) cache?: DependencyHealth;
}

/** Every checked dependency. */
class AllDependencies {
  @ApiProperty({ type: DependencyHealth, description: 'PostgreSQL' }) database!: DependencyHealth;
  @ApiProperty({ type: DependencyHealth, description: 'Redis' }) cache!: DependencyHealth;
}

/** The Terminus body of `/health/ready` and `/health` (docs/api-contract.md §8). */
class HealthChecks {
  @ApiProperty({ type: SomeDependencies, description: 'The dependencies that are up' })
  info!: SomeDependencies;
  @ApiProperty({ type: SomeDependencies, description: 'The dependencies that are down' })
  error!: SomeDependencies;
  @ApiProperty({ type: AllDependencies }) details!: AllDependencies;
}

/** 200: every dependency is up (`error` is `{}`). */
export class HealthUpResponse extends HealthChecks {
  @ApiProperty({ enum: ['ok'] }) status!: 'ok';
}

/** 503 (`application/json`, not a problem): a dependency is down, or the app is shutting down. */
export class HealthDownResponse extends HealthChecks {
  @ApiProperty({ enum: ['error', 'shutting_down'] }) status!: 'error' | 'shutting_down';
}
