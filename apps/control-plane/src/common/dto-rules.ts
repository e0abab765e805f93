import { applyDecorators } from '@nestjs/common';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsString,
  Length,
  Matches,
} from 'class-validator';

/**
 * `decorators` applied as if written one above the other (the last first), as the stacks these
 * replace: class-validator reports a member's failed rules in that order.
 */
export const stacked = (...decorators: PropertyDecorator[]): PropertyDecorator =>
  applyDecorators(...decorators.reverse());

/** A text of 1 to `maxLength` characters that is not only white space (a name, a reason). */
export const IsNonBlank = (maxLength: number): PropertyDecorator =>
  stacked(IsString(), Length(1, maxLength), Matches(/\S/, { message: 'must not be blank' }));

/** A non-empty list of at most `maxItems` items, each one of `values`. */
export const IsListOf = (values: readonly string[], maxItems: number): PropertyDecorator =>
  stacked(
    IsArray(),
    ArrayNotEmpty(),
    ArrayMaxSize(maxItems),
    IsIn(values, { each: true, message: `each must be one of ${values.join(', ')}` }),
  );
