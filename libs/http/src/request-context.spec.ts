import type { LoggerService } from '@nestjs/common';
import express, { type Request, type Response } from 'express';
import request from 'supertest';
import { requestContextMiddleware, setRequestTenant } from './request-context';

function appWith(lines: unknown[], json = true) {
  const logger = { log: (line: unknown) => lines.push(line) } as unknown as LoggerService;
  const app = express();
  app.use(requestContextMiddleware('test-app', { logger, json }));
  app.get('/health/ready', (_req: Request, res: Response) => {
    res.json({});
  });
  app.get('/tenant/:id', (req: Request, res: Response) => {
    setRequestTenant(req, req.params.id as string);
    res.json({
      traceId: (res.locals as { traceId?: string }).traceId,
      ownKeys: Object.keys(req).filter((k) => /trace|tenant|started/i.test(k)),
    });
  });
  app.get('/anonymous', (_req: Request, res: Response) => {
    res.json({});
  });
  return app;
}

describe('requestContextMiddleware', () => {
  it('keeps the trace id in res.locals, sends it in traceresponse and adds nothing to the request', async () => {
    const lines: unknown[] = [];
    const res = await request(appWith(lines)).get('/tenant/t-1');
    expect(res.status).toBe(200);
    expect(res.body.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(res.headers.traceresponse).toMatch(
      new RegExp(`^00-${res.body.traceId}-[0-9a-f]{16}-01$`),
    );
    expect(res.body.ownKeys).toEqual([]);
  });

  it('takes the trace id of a valid traceparent', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await request(appWith([]))
      .get('/tenant/t-1')
      .set('traceparent', `00-${traceId}-00f067aa0ba902b7-01`);
    expect(res.body.traceId).toBe(traceId);
  });

  it('logs one line per request with the route, status, the tenant a handler recorded and the trace id', async () => {
    const lines: unknown[] = [];
    const app = appWith(lines);
    const withTenant = await request(app).get('/tenant/t-42');
    await request(app).get('/anonymous');
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual([
      {
        msg: 'request',
        method: 'GET',
        route: '/tenant/:id',
        status: 200,
        ms: expect.any(Number),
        tenant: 't-42',
        traceId: withTenant.body.traceId,
      },
      {
        msg: 'request',
        method: 'GET',
        route: '/anonymous',
        status: 200,
        ms: expect.any(Number),
        tenant: null,
        traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    ]);
  });

  it('logs a text line short (method, route, status, whole milliseconds), and no health probe in text', async () => {
    const lines: unknown[] = [];
    const app = appWith(lines, false);
    await request(app).get('/tenant/t-42');
    await request(app).get('/health/ready');
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual([expect.stringMatching(/^GET \/tenant\/:id 200 \d+ ms$/)]);
    // In JSON the probe is a line like any other.
    const json: unknown[] = [];
    await request(appWith(json)).get('/health/ready');
    await new Promise((r) => setImmediate(r));
    expect(json).toEqual([
      expect.objectContaining({ msg: 'request', route: '/health/ready', status: 200 }),
    ]);
  });
});
