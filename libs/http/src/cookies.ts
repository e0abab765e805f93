import { parse } from 'cookie';
import type { Request } from 'express';

/**
 * The value of cookie `name` in the request's `Cookie` header, or null when it is absent or empty.
 * Parsed when asked (a request reads one or two cookies, most read none) rather than by a
 * middleware on every request; values are percent-decoded, and nothing else (no JSON or signed
 * cookies).
 */
export function requestCookie(req: Request, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  const value = parse(header)[name];
  return value ? value : null;
}
