import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsInt,
  isISO31661Alpha2,
  Max,
  Min,
  ValidateIf,
  type ValidationOptions,
} from 'class-validator';
import { ruleDecorator } from '../../common/rule-decorator';

/** At most as many items as there are countries (249), rounded up; a longer list is a mistake or an attack. */
const MAX_COUNTRIES = 250;

/**
 * `settings.sms.allowed_countries`: a non-empty list of distinct upper-case ISO 3166-1 alpha-2
 * codes, or exactly `["*"]`. Lower case is refused (with the code it should be), not folded, so
 * what is stored is what was sent. Returns what is wrong, under the list's own path, or null.
 */
export function countryListProblem(value: unknown): string | null {
  if (!Array.isArray(value))
    return 'must be an array of ISO 3166-1 alpha-2 country codes such as ["FR", "BE"], or ["*"]';
  if (value.length === 0) return 'must not be empty (["*"] allows every country)';
  if (value.length > MAX_COUNTRIES) return `must have at most ${MAX_COUNTRIES} items`;
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'string') return `item ${i} must be a string`;
    if (item === '*') {
      if (value.length > 1) return '"*" must be the only item';
      continue;
    }
    const shown = JSON.stringify(item.slice(0, 20));
    if (/^[a-z]{2}$/.test(item) && isISO31661Alpha2(item))
      return `item ${i} (${shown}) must be upper case: "${item.toUpperCase()}"`;
    if (!/^[A-Z]{2}$/.test(item) || !isISO31661Alpha2(item))
      return `item ${i} (${shown}) must be an ISO 3166-1 alpha-2 country code such as FR`;
    if (value.indexOf(item) !== i) return `item ${i} (${shown}) repeats an earlier item`;
  }
  return null;
}

const IsCountryList = (options?: ValidationOptions): PropertyDecorator =>
  ruleDecorator('isCountryList', countryListProblem, options);

/**
 * `settings.sms` (docs/api-contract.md §6): the project's hourly SMS budget and the countries it texts. One
 * top-level settings key, replaced whole by a PATCH; a member left out takes its default, `null`
 * is refused here (set `sms` itself to null to reset both).
 */
export class SmsSettingsDto {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: 100000,
    default: 100,
    description: 'SMS the project may send in an hour, all users together',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsInt()
  @Min(1)
  @Max(100000)
  max_per_hour?: number;

  @ApiPropertyOptional({
    type: [String],
    default: ['*'],
    example: ['FR', 'BE'],
    description: 'ISO 3166-1 alpha-2 codes (upper case), or ["*"] for any country',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsCountryList()
  allowed_countries?: string[];
}
