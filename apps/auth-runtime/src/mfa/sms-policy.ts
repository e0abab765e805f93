import type { Response } from 'express';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { projectSmsSettings, type ResolvedProject } from '@gatehouse/identity';
import type { RateLimitsService } from '@gatehouse/http';
import { ProblemError } from '@gatehouse/problem-details';

/** Against SMS pumping: sends per phone number and per user (docs/authentication.md, "SMS"). */
export const SMS_LIMITS = {
  perNumber: { name: 'sms-number', limit: 5, windowMs: 3600_000 },
  perUser: { name: 'sms-user', limit: 5, windowMs: 3600_000 },
};

/** The ISO 3166-1 alpha-2 country of an E.164 number; null when its calling code names none (+800, +882…) or it is unknown. */
export function phoneCountry(phone: string): string | null {
  return parsePhoneNumberFromString(phone)?.country ?? null;
}

/** Whether the project texts this number: `["*"]` allows any, a list only numbers whose country it names. */
export function smsCountryAllowed(project: ResolvedProject, phone: string): boolean {
  const allowed = projectSmsSettings(project.settings).allowed_countries;
  if (allowed.includes('*')) return true;
  const country = phoneCountry(phone);
  return country !== null && allowed.includes(country);
}

/**
 * Refuses a number outside the project's `settings.sms.allowed_countries` with `validation-error`
 * on `phone_number`, also for `mfa/sms/send`, whose number is the enrolled one (not in its body).
 */
export function assertSmsCountry(project: ResolvedProject, phone: string, enrolled: boolean): void {
  if (smsCountryAllowed(project, phone)) return;
  throw enrolled
    ? ProblemError.validation(
        {
          phone_number: [
            'the enrolled phone number is in a country this project does not send SMS to',
          ],
        },
        'No SMS can be sent to the enrolled phone number; use another factor.',
      )
    : ProblemError.validation({
        phone_number: ['must be a phone number in a country this project sends SMS to'],
      });
}

/**
 * The limits of one SMS, in order: per number, per user, then the project's hourly budget
 * (`settings.sms.max_per_hour`, one counter per project in the shared rate-limit storage, so every
 * instance counts together). A send refused by the first two costs the project nothing. The
 * `RateLimit-*` headers report the per-user limit, or the budget when it refuses.
 */
export async function enforceSmsLimits(
  rateLimits: RateLimitsService,
  res: Response,
  project: ResolvedProject,
  phone: string,
  userId: string,
): Promise<void> {
  await rateLimits.enforce(res, SMS_LIMITS.perNumber, [phone]);
  await rateLimits.enforce(res, SMS_LIMITS.perUser, [userId]);
  const budget = {
    name: 'sms-project',
    limit: projectSmsSettings(project.settings).max_per_hour,
    windowMs: 3600_000,
  };
  await rateLimits.enforce(res, budget, [project.id], 'when-refused');
}
