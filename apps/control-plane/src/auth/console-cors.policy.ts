import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AllowedOrigins, type CorsPolicy } from '@gatehouse/identity';
import { CacheStore } from '@gatehouse/platform';

/**
 * CONTRACT §10: the control plane serves the admin console, so both the preflight and the real
 * request are checked against the allowed origins of the console projects (of any tenant; which
 * tenant a request acts on is decided later by its admin token).
 */
export function consoleCorsPolicy(app: INestApplicationContext): CorsPolicy {
  const origins = new AllowedOrigins(app.get(DataSource), app.get(CacheStore));
  const allowed = async (origin: string) => (await origins.ofConsoleProjects()).has(origin);
  return { preflightAllowed: allowed, requestAllowed: (_req, origin) => allowed(origin) };
}
