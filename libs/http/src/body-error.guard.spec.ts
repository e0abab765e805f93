import {
  Catch,
  Controller,
  Delete,
  Get,
  Injectable,
  Module,
  Post,
  UnauthorizedException,
  UseGuards,
  type ArgumentsHost,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type INestApplication,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import request from 'supertest';
import { loadConfig } from '@gatehouse/config';
import { PlatformError } from '@gatehouse/platform';
import { createHttpApp } from './create-http-app';

/** A guard written without any knowledge of request bodies, as a newcomer would write one. */
@Injectable()
class NewcomersGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.switchToHttp().getRequest<Request>().headers.authorization !== 'Bearer ok')
      throw new UnauthorizedException();
    return true;
  }
}

@Injectable()
class SecondGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.switchToHttp().getRequest<Request>().headers['x-second'] !== 'ok')
      throw new UnauthorizedException();
    return true;
  }
}

@UseGuards(NewcomersGuard)
@Controller('guarded')
class GuardedController {
  @Post()
  create() {
    return { created: true };
  }

  @Delete()
  @UseGuards(SecondGuard)
  remove() {
    return { removed: true };
  }
}

@Controller('open')
class OpenController {
  @Get()
  read() {
    return { read: true };
  }
}

@Module({
  controllers: [GuardedController, OpenController],
  providers: [NewcomersGuard, SecondGuard],
})
class TestModule {}

/** Renders a PlatformError as its slug with 400 (the real filter lives above this library). */
@Catch(PlatformError)
class SlugFilter implements ExceptionFilter {
  catch(err: PlatformError, host: ArgumentsHost) {
    host.switchToHttp().getResponse<Response>().status(400).json({ slug: err.problemSlug });
  }
}

describe('judgeBodiesAfterRouteGuards (through createHttpApp)', () => {
  let app: INestApplication;
  const badJson = (req: request.Test) =>
    req.set('Content-Type', 'application/json').send('{"broken":');

  beforeAll(async () => {
    const config = loadConfig({
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      LOG_LEVEL: 'error',
    });
    app = await createHttpApp(TestModule, config, {
      name: 'test',
      description: 'test',
      docs: false,
      logger: false,
      configure: (a) => a.useGlobalFilters(new SlugFilter()),
    });
  });
  afterAll(() => app.close());

  it("judges a new guard's authentication before the body, without the guard doing anything for it", async () => {
    expect((await badJson(request(app.getHttpServer()).post('/guarded'))).status).toBe(401);
    const authenticated = await badJson(
      request(app.getHttpServer()).post('/guarded').set('Authorization', 'Bearer ok'),
    );
    expect(authenticated.status).toBe(400);
    expect(authenticated.body).toEqual({ slug: expect.any(String) });
    expect(
      (await request(app.getHttpServer()).post('/guarded').set('Authorization', 'Bearer ok')).body,
    ).toEqual({ created: true });
  });

  it('judges every guard of the controller and the handler before the body', async () => {
    expect(
      (
        await badJson(
          request(app.getHttpServer()).delete('/guarded').set('Authorization', 'Bearer ok'),
        )
      ).status,
    ).toBe(401);
    expect(
      (
        await badJson(
          request(app.getHttpServer())
            .delete('/guarded')
            .set('Authorization', 'Bearer ok')
            .set('X-Second', 'ok'),
        )
      ).status,
    ).toBe(400);
  });

  it('refuses the body of a route without guards', async () => {
    expect((await badJson(request(app.getHttpServer()).get('/open'))).status).toBe(400);
    expect((await request(app.getHttpServer()).get('/open')).body).toEqual({ read: true });
  });
});
