import { Body, Controller, Delete, Get, Module, Post, type INestApplication } from '@nestjs/common';
import request from 'supertest';
import { loadConfig } from '@gatehouse/config';
import { createHttpApp } from './create-http-app';

@Controller('things')
class ThingsController {
  @Get()
  list() {
    return [];
  }

  @Post()
  create(@Body() body: unknown) {
    return body;
  }

  @Delete(':id')
  remove() {
    return undefined;
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

describe('the OpenAPI document every app serves', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const config = loadConfig({
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      LOG_LEVEL: 'error',
    });
    app = await createHttpApp(ThingsModule, config, {
      name: 'test',
      description: 'test',
      logger: false,
    });
  });
  afterAll(() => app.close());

  it('declares one Problem schema and, on every operation, any answer that is not a success as that problem', async () => {
    const doc = (await request(app.getHttpServer()).get('/docs/openapi.json')).body as {
      paths: Record<
        string,
        Record<
          string,
          { responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }> }
        >
      >;
      components: {
        schemas: Record<string, { required: string[]; properties: Record<string, unknown> }>;
      };
    };
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ at: `${method} ${path}`, op })),
    );
    expect(operations.map((o) => o.at).sort()).toEqual([
      'delete /things/{id}',
      'get /things',
      'post /things',
    ]);
    for (const { at, op } of operations) {
      expect({
        at,
        schema: op.responses.default?.content?.['application/problem+json']?.schema,
      }).toEqual({ at, schema: { $ref: '#/components/schemas/Problem' } });
    }
    const problem = doc.components.schemas.Problem;
    expect(problem.required).toEqual(['type', 'title', 'status', 'detail', 'traceId']);
    expect(Object.keys(problem.properties)).toEqual([
      'type',
      'title',
      'status',
      'detail',
      'instance',
      'traceId',
      'errors',
    ]);
  });
});
