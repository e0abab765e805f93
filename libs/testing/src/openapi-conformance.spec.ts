import { Controller, Get, Module, Post, Res, type INestApplication } from '@nestjs/common';
import { ApiOkResponse, ApiProperty } from '@nestjs/swagger';
import type { Response } from 'express';
import request from 'supertest';
import { loadConfig } from '@gatehouse/config';
import { createHttpApp, servedOpenApiDocument } from '@gatehouse/http';
import {
  openApiDisagreements,
  operationsWithoutSuccessSchema,
  recordAnswers,
  type RecordedAnswer,
} from './openapi-conformance';

const TRACE = 'a'.repeat(32);

class ThingResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: String, nullable: true }) note!: string | null;
}

@Controller('things')
class ThingsController {
  @Get('right')
  @ApiOkResponse({ type: ThingResponse })
  right() {
    return { id: '6f1c1d3e-0000-4000-8000-000000000000', note: null };
  }

  @Get('wrong')
  @ApiOkResponse({ type: ThingResponse })
  wrong() {
    return { id: 42 };
  }

  @Post()
  create() {
    return { created: true };
  }

  @Post('quietly')
  createQuietly(@Res({ passthrough: true }) res: Response) {
    res.status(202);
    return {};
  }

  @Get('good-problem')
  goodProblem(@Res() res: Response) {
    res.status(404).type('application/problem+json').send({
      type: 'https://gatehouse.dev/problems/not-found',
      title: 'Not Found',
      status: 404,
      detail: 'No such thing.',
      traceId: TRACE,
    });
  }

  @Get('bad-problem')
  badProblem(@Res() res: Response) {
    res
      .status(400)
      .type('application/problem+json')
      .send({ type: 'https://gatehouse.dev/problems/validation-error', status: '400' });
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

describe('holding recorded answers against the served OpenAPI document', () => {
  let app: INestApplication;
  const answers: RecordedAnswer[] = [];

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
    recordAnswers(app.getHttpServer(), answers);
  });
  afterAll(() => app.close());
  beforeEach(() => void answers.splice(0));

  it('finds nothing to say about declared successes and well-formed problems, and records bodies unchanged', async () => {
    expect((await request(app.getHttpServer()).get('/things/right')).body).toEqual({
      id: '6f1c1d3e-0000-4000-8000-000000000000',
      note: null,
    });
    const created = await request(app.getHttpServer()).post('/things');
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ created: true });
    expect((await request(app.getHttpServer()).get('/things/good-problem')).status).toBe(404);
    expect(answers.map((a) => [a.method, a.path, a.status, a.body.toString()])).toEqual([
      ['get', '/things/right', 200, '{"id":"6f1c1d3e-0000-4000-8000-000000000000","note":null}'],
      ['post', '/things', 201, '{"created":true}'],
      ['get', '/things/good-problem', 404, expect.stringContaining('"traceId"')],
    ]);
    expect(openApiDisagreements(servedOpenApiDocument(app), answers)).toEqual([]);
    // The document the check reads is the one served at /docs/openapi.json.
    expect((await request(app.getHttpServer()).get('/docs/openapi.json')).body).toEqual(
      JSON.parse(JSON.stringify(servedOpenApiDocument(app))),
    );
  });

  it('names a success the document does not declare, a body off its declared schema and a problem that does not match the Problem schema', async () => {
    expect((await request(app.getHttpServer()).post('/things/quietly')).status).toBe(202);
    expect((await request(app.getHttpServer()).get('/things/wrong')).status).toBe(200);
    expect((await request(app.getHttpServer()).get('/things/bad-problem')).status).toBe(400);
    const found = openApiDisagreements(servedOpenApiDocument(app), answers);
    expect(found).toEqual([
      expect.stringMatching(
        /^POST \/things\/quietly → 202: a success the document does not declare \(it declares 201, default\)$/,
      ),
      expect.stringMatching(
        /^GET \/things\/wrong → 200: the body does not match the declared schema \(.*(id|note).*\)$/,
      ),
      expect.stringMatching(
        /^GET \/things\/bad-problem → 400: the problem does not match the Problem schema \(.*title.*\)$/,
      ),
    ]);
  });
});

describe('schemas of a hand-written document', () => {
  const answer = (body: unknown): RecordedAnswer => ({
    method: 'get',
    path: '/me',
    status: 200,
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify(body)),
  });
  const problem = { type: 'object', required: ['type'], properties: { type: { type: 'string' } } };
  const doc = (responses: object) => ({
    paths: { '/me': { get: { responses } } },
    components: { schemas: { Problem: problem } },
  });
  const alwaysNull = {
    type: 'object',
    required: ['user'],
    properties: { user: { type: 'string', nullable: true, enum: [null] } },
  };

  it('holds a member that is always null (nullable, enum [null]) without doubling the null', () => {
    const d = doc({ '200': { content: { 'application/json': { schema: alwaysNull } } } });
    expect(openApiDisagreements(d, [answer({ user: null })])).toEqual([]);
    expect(openApiDisagreements(d, [answer({ user: 'someone' })])).toEqual([
      expect.stringContaining('GET /me → 200: the body does not match the declared schema'),
    ]);
  });

  it('names the operations that do not say what they answer on success', () => {
    const described = { '200': { content: { 'application/json': { schema: alwaysNull } } } };
    expect(operationsWithoutSuccessSchema(doc(described))).toEqual([]);
    expect(operationsWithoutSuccessSchema(doc({ '204': { description: 'no body' } }))).toEqual([]);
    expect(operationsWithoutSuccessSchema(doc({ '302': { description: 'redirect' } }))).toEqual([]);
    expect(operationsWithoutSuccessSchema(doc({ '200': { description: 'no schema' } }))).toEqual([
      'GET /me',
    ]);
    expect(operationsWithoutSuccessSchema(doc({ default: { description: 'a problem' } }))).toEqual([
      'GET /me',
    ]);
    const xml = (type: string) => ({
      '200': { description: 'metadata', content: { [type]: { schema: { type: 'string' } } } },
    });
    expect(operationsWithoutSuccessSchema(doc(xml('application/samlmetadata+xml')))).toEqual([]);
    expect(operationsWithoutSuccessSchema(doc(xml('application/xml')))).toEqual([]);
    expect(operationsWithoutSuccessSchema(doc(xml('text/html')))).toEqual(['GET /me']);
  });
});
