import type { Response } from 'supertest';

/** Asserts a whole problem-details body (docs/api-contract.md §4) and returns it for further checks. */
export function expectProblem(
  res: Response,
  status: number,
  slug: string,
  path?: string,
): Record<string, unknown> {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = res.body as Record<string, unknown>;
  expect(body).toEqual(
    expect.objectContaining({
      type: `https://gatehouse.dev/problems/${slug}`,
      title: expect.any(String),
      status,
      detail: expect.any(String),
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
    }),
  );
  if (path !== undefined) expect(body.instance).toBe(path);
  const serialized = JSON.stringify(body);
  expect(serialized).not.toMatch(
    /\bat .+\.(ts|js):\d+|QueryFailedError|SELECT |INSERT |node_modules/,
  );
  return body;
}
