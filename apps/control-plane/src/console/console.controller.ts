import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { ProjectsRepository } from '@gatehouse/identity';
import { sendWebAppAsset, sendWebAppPage } from '@gatehouse/http';
import { ProblemError } from '@gatehouse/problem-details';
import { ConsoleFiles, consoleCsp } from './console-files';

const NOT_BUILT = 'The console is not built: run `npm run build:console` (`npm start` builds it).';

/**
 * The admin console (docs/console.md): a single-page application that is a client of the public
 * APIs. Its files are served here with a strict CSP, hashed assets cached for a year, and every
 * other path under /console answered with the page (the client-side router takes it from there).
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleController {
  private readonly files = new ConsoleFiles();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly projects: ProjectsRepository,
  ) {}

  /** What the page needs before signing in: where the auth runtime is and the console project's key. */
  @Get('config.json')
  async settings(@Res() res: Response): Promise<void> {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.json({
      auth_url: this.config.http.publicAuthUrl,
      project_key: await this.projects.firstConsoleKey(),
      console_url: this.config.http.publicConsoleUrl,
    });
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Res() res: Response): void {
    const file = this.files.asset(name);
    if (!file) throw new ProblemError('not-found', { detail: 'No such console asset.' });
    sendWebAppAsset(res, file);
  }

  @Get()
  root(@Res() res: Response): void {
    this.page(res);
  }

  @Get('*path')
  route(@Res() res: Response): void {
    this.page(res);
  }

  private page(res: Response): void {
    const page = this.files.page();
    if (!page) throw new ProblemError('not-found', { detail: NOT_BUILT });
    sendWebAppPage(
      res,
      page.html,
      consoleCsp(page.nonce, new URL(this.config.http.publicAuthUrl).origin),
    );
  }
}
