import { randomUUID } from 'node:crypto';
import { expectProblem } from './problem';
import type { TestApp } from './test-app';

/**
 * Sends refused bodies with valid credentials to every route of the app's OpenAPI document, path
 * ids filled with a fresh UUID: invalid JSON (400 `invalid-json`) and, except to a GET, a non-JSON
 * type (415). Each must answer the body's problem, judged right after authentication and before
 * anything else (ids, fields). Returns the routes tried.
 */
export async function expectEveryRouteToRefuseBadBodies(
  t: TestApp,
  headers: Record<string, string>,
): Promise<string[]> {
  const doc = await t.http().get('/docs/openapi.json');
  const tried: string[] = [];
  for (const [template, operations] of Object.entries(
    doc.body.paths as Record<string, Record<string, unknown>>,
  )) {
    const path = template.replace(/\{[^}]+\}/g, () => randomUUID());
    for (const method of Object.keys(operations).filter((m) =>
      ['get', 'post', 'put', 'patch', 'delete'].includes(m),
    )) {
      const send = (type: string, body: string) =>
        t.http()[method as 'post'](path).set(headers).set('Content-Type', type).send(body);
      const label = `${method.toUpperCase()} ${template}`;
      const refusals: [type: string, body: string, status: number, slug: string][] = [
        ['application/json', '{"broken": ', 400, 'invalid-json'],
      ];
      // A GET's body of another type is ignored (only bodies of POST, PUT, PATCH, DELETE must be JSON).
      if (method !== 'get') refusals.push(['text/plain', 'plain', 415, 'unsupported-media-type']);
      for (const [type, body, status, slug] of refusals) {
        const res = await send(type, body);
        expect([label, res.status]).toEqual([label, status]);
        expectProblem(res, status, slug);
      }
      tried.push(label);
    }
  }
  return tried;
}
