import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { ProblemError, type FieldErrors } from '@gatehouse/problem-details';

export interface Page {
  page: number;
  limit: number;
  offset: number;
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
}

/** A whole number from `min` to `max` written in digits (`dflt` when absent); else an error on `name`. */
export function integerParam(
  value: unknown,
  name: string,
  min: number,
  max: number,
  dflt: number,
  errors: FieldErrors,
): number {
  if (value === undefined) return dflt;
  if (
    typeof value !== 'string' ||
    !/^\d{1,9}$/.test(value) ||
    Number(value) < min ||
    Number(value) > max
  ) {
    errors[name] = [`must be an integer from ${min} to ${max}`];
    return dflt;
  }
  return Number(value);
}

/** `?page=1&limit=20` (docs/api-contract.md §6): limit 1–100; anything else is a validation error. */
export function parsePage(query: Record<string, unknown>): Page {
  const errors: FieldErrors = {};
  const page = integerParam(query.page, 'page', 1, 1_000_000, 1, errors);
  const limit = integerParam(query.limit, 'limit', 1, 100, 20, errors);
  if (Object.keys(errors).length) throw ProblemError.validation(errors);
  return { page, limit, offset: (page - 1) * limit };
}

export function paginated<K extends string, T>(
  key: K,
  items: T[],
  page: Page,
  total: number,
): Record<K, T[]> & { pagination: Pagination } {
  return { [key]: items, pagination: { page: page.page, limit: page.limit, total } } as Record<
    K,
    T[]
  > & { pagination: Pagination };
}

/** The `page` and `limit` query parameters of a list route, in its OpenAPI operation. */
export function ApiPageQueries(): MethodDecorator {
  return applyDecorators(
    ApiQuery({
      name: 'page',
      required: false,
      schema: { type: 'integer', minimum: 1, default: 1 },
    }),
    ApiQuery({
      name: 'limit',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    }),
  );
}
