import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsEmail, IsString, MaxLength } from 'class-validator';

/**
 * A body's email address as people type and paste it: surrounding whitespace is dropped (as
 * sign-in does with identifiers), then it must be a string of at most 254 characters that is an
 * email address. Case is kept here; lookups compare case-insensitively.
 */
export function IsEmailAddress(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.trim() : value,
    ),
    IsString(),
    MaxLength(254),
    IsEmail({}, { message: 'must be a valid email address' }),
  );
}
