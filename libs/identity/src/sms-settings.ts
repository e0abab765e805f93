import type { ProjectSettings } from '@gatehouse/entities';

/** `settings.sms` of a project (docs/api-contract.md §6), every member present. */
export interface ProjectSmsSettings {
  /** SMS the project may send in an hour, all users and numbers together (1–100000). */
  max_per_hour: number;
  /** ISO 3166-1 alpha-2 codes of the countries SMS may go to, or `["*"]` for any. */
  allowed_countries: string[];
}

export const DEFAULT_SMS_SETTINGS = { max_per_hour: 100, allowed_countries: ['*'] } as const;

/**
 * A project's `settings.sms` with each absent member at its default: a project that never set it,
 * or set `{max_per_hour}` alone, may text any country (docs/authentication.md, "SMS"). A country
 * list that is present but not a list (never written by the admin API) allows no country.
 */
export function projectSmsSettings(settings: ProjectSettings): ProjectSmsSettings {
  const sms = settings.sms ?? {};
  const countries: unknown = sms.allowed_countries;
  return {
    max_per_hour:
      typeof sms.max_per_hour === 'number' ? sms.max_per_hour : DEFAULT_SMS_SETTINGS.max_per_hour,
    allowed_countries:
      countries === undefined
        ? [...DEFAULT_SMS_SETTINGS.allowed_countries]
        : Array.isArray(countries)
          ? countries.filter((c): c is string => typeof c === 'string')
          : [],
  };
}
