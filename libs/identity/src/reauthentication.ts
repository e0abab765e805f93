import type { ResolvedProject } from './projects-cache.service';

/** The default of `settings.reauthentication_max_age_seconds` (step-up window, docs/security.md). */
export const DEFAULT_REAUTHENTICATION_MAX_AGE_SECONDS = 600;

/** How recent `auth_time` must be for sensitive actions: the project's valid setting (30–86400 s), else the default. */
export function reauthenticationMaxAgeSeconds(project: Pick<ResolvedProject, 'settings'>): number {
  const v = project.settings.reauthentication_max_age_seconds;
  return typeof v === 'number' && Number.isInteger(v) && v >= 30 && v <= 86400
    ? v
    : DEFAULT_REAUTHENTICATION_MAX_AGE_SECONDS;
}
