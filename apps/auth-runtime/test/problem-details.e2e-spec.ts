import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { IsEmail, IsInt, IsOptional, IsString } from 'class-validator';
import { buildHttpApp } from '@gatehouse/http';
import { ProblemError } from '@gatehouse/problem-details';
import { expectProblem, startTestApp, type TestApp } from '@gatehouse/testing';
import { AppModule } from '../src/app.module';

class EchoDto {
  @IsEmail() email!: string;
  @IsOptional() @IsInt() count?: number;
  @IsOptional() @IsString() note?: string;
}

@Controller('probe')
class ProbeController {
  @Post('echo')
  echo(@Body() body: EchoDto) {
    return { email: body.email };
  }

  @Get('conflict')
  conflict(): never {
    throw new ProblemError('conflict', { detail: 'Something already exists.' });
  }

  @Get('boom')
  boom(): never {
    throw new Error('secret internals: SELECT * FROM users');
  }
}

describe('problem details on every error path (auth-runtime)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(async (config, opts) => {
      @Module({ imports: [AppModule.forRoot(config, opts.clock)], controllers: [ProbeController] })
      class ProbeModule {}
      return buildHttpApp(ProbeModule, config, {
        name: 'probe',
        description: 'probe',
        logger: false,
      });
    });
  });
  afterAll(() => t.close());

  it('answers an unknown route with 404 not-found and the path as instance', async () => {
    const res = await t.http().get('/v1/auth/nothing-here?x=1');
    expectProblem(res, 404, 'not-found', '/v1/auth/nothing-here');
  });

  it('answers a wrong method with 405 and an Allow header', async () => {
    const res = await t.http().delete('/health/live');
    expectProblem(res, 405, 'method-not-allowed', '/health/live');
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('answers unparseable JSON with 400 invalid-json', async () => {
    const res = await t
      .http()
      .post('/probe/echo')
      .set('Content-Type', 'application/json')
      .send('{"email": ');
    expectProblem(res, 400, 'invalid-json', '/probe/echo');
  });

  it('answers a non-JSON body with 415 unsupported-media-type', async () => {
    const res = await t
      .http()
      .post('/probe/echo')
      .set('Content-Type', 'text/plain')
      .send('email=a@b.c');
    expectProblem(res, 415, 'unsupported-media-type', '/probe/echo');
    const form = await t.http().post('/probe/echo').type('form').send({ email: 'a@b.c' });
    expectProblem(form, 415, 'unsupported-media-type');
  });

  it('answers a body over the limit with 413 payload-too-large', async () => {
    const big = JSON.stringify({ email: 'a@b.co', note: 'x'.repeat(1024 * 1024) });
    const res = await t
      .http()
      .post('/probe/echo')
      .set('Content-Type', 'application/json')
      .send(big);
    expectProblem(res, 413, 'payload-too-large', '/probe/echo');
  });

  it('lists every invalid field in errors', async () => {
    const res = await t.http().post('/probe/echo').send({ email: 'not-an-email', count: '3' });
    const body = expectProblem(res, 400, 'validation-error', '/probe/echo');
    expect(Object.keys(body.errors as object).sort()).toEqual(['count', 'email']);
    expect((body.errors as Record<string, string[]>).email?.[0]).toEqual(expect.any(String));
  });

  it('refuses unknown fields, __proto__, NUL bytes and lone surrogates', async () => {
    const unknown = await t.http().post('/probe/echo').send({ email: 'a@b.co', is_admin: true });
    expect(expectProblem(unknown, 400, 'validation-error').errors).toHaveProperty('is_admin');

    const proto = await t
      .http()
      .post('/probe/echo')
      .set('Content-Type', 'application/json')
      .send('{"email":"a@b.co","__proto__":{"x":1}}');
    expect(expectProblem(proto, 400, 'validation-error').errors).toHaveProperty(['__proto__']);

    const nul = await t.http().post('/probe/echo').send({ email: 'a@b.co', note: 'a\u0000b' });
    expect(expectProblem(nul, 400, 'validation-error').errors).toHaveProperty('note');

    const surrogate = await t
      .http()
      .post('/probe/echo')
      .set('Content-Type', 'application/json')
      .send('{"email":"a@b.co","note":"\\ud800"}');
    expect(expectProblem(surrogate, 400, 'validation-error').errors).toHaveProperty('note');
  });

  it('answers a JSON body that is not an object with validation-error', async () => {
    for (const raw of ['null', '[]', '42', '"text"']) {
      const res = await t
        .http()
        .post('/probe/echo')
        .set('Content-Type', 'application/json')
        .send(raw);
      expectProblem(res, 400, 'validation-error', '/probe/echo');
    }
  });

  it('renders a thrown ProblemError with its slug and detail', async () => {
    const res = await t.http().get('/probe/conflict');
    const body = expectProblem(res, 409, 'conflict', '/probe/conflict');
    expect(body.detail).toBe('Something already exists.');
  });

  it('turns an unexpected exception into 500 internal-error without internals', async () => {
    const res = await t.http().get('/probe/boom');
    const body = expectProblem(res, 500, 'internal-error', '/probe/boom');
    expect(JSON.stringify(body)).not.toContain('secret internals');
  });

  it('uses the trace id of a valid traceparent and returns it in traceresponse', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await t
      .http()
      .get('/nowhere')
      .set('traceparent', `00-${traceId}-00f067aa0ba902b7-01`);
    expect(expectProblem(res, 404, 'not-found').traceId).toBe(traceId);
    expect(res.headers.traceresponse).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  });

  it('gives a problem the trace id its traceresponse header carries when the client sent none', async () => {
    const res = await t.http().get('/nowhere');
    const traceId = expectProblem(res, 404, 'not-found').traceId as string;
    expect(res.headers.traceresponse).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  });
});
