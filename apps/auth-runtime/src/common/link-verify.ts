import { applyDecorators, Get } from '@nestjs/common';
import { ApiOperation, ApiQuery } from '@nestjs/swagger';
import { ProblemError } from '@gatehouse/problem-details';
import { ApiFoundRedirect } from './redirect.response';

/**
 * `GET verify?token=…&project_key=…`, the route a one-time link opens (a browser navigation: the
 * project key comes in the query), always answered with a redirect (`ApiFoundRedirect`'s
 * `description` and `location`). Applied bottom first, as the stack `@Get @ApiQuery(token)
 * @ApiQuery(project_key) @ApiOperation @ApiFoundRedirect` it replaces.
 */
export const LinkVerifyRoute = (
  summary: string,
  description: string,
  location: string,
): MethodDecorator =>
  applyDecorators(
    ApiFoundRedirect(description, location),
    ApiOperation({ summary }),
    ApiQuery({ name: 'project_key', required: true }),
    ApiQuery({ name: 'token', required: true }),
    Get('verify'),
  );

/** A link's `token` query parameter; '' when it is absent or given twice (it then names no link). */
export const linkToken = (token: unknown): string => (typeof token === 'string' ? token : '');

/** Where a link sends the browser: 400 `invalid-token` (`detail`) when it names nowhere to go. */
export function linkTarget(redirectUrl: string | null, detail: string): string {
  if (!redirectUrl) throw new ProblemError('invalid-token', { detail });
  return redirectUrl;
}
