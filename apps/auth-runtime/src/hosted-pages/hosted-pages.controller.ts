import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import {
  OAUTH_PROVIDERS,
  projectOidcSettings,
  ProjectsCache,
  type ResolvedProject,
} from '@gatehouse/identity';
import { sendWebAppAsset, sendWebAppPage } from '@gatehouse/http';
import { ProblemError } from '@gatehouse/problem-details';
import { readProviderSettings } from '../oauth/provider-config';
import { HostedPagesFiles, hostedPagesCsp } from './hosted-pages-files';

const PAGES: ReadonlySet<string> = new Set(['sign-in', 'consent', 'signed-out', 'error']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NOT_BUILT =
  'The hosted sign-in pages are not built: run `npm run build:pages` (`npm start` builds them).';

/**
 * Gatehouse's hosted pages for the OpenID Connect provider's interactions (docs/oidc.md, "Hosted
 * pages"): sign-in, consent, signed-out and error, one single-page build served under each
 * OIDC-enabled project's issuer with a strict CSP and a fresh nonce per response; hashed assets
 * are cached for a year. A project that does not exist or has not enabled OIDC has no pages (404).
 */
@ApiExcludeController()
@Controller('v1/projects/:projectId/pages')
export class HostedPagesController {
  private readonly files = new HostedPagesFiles();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly projects: ProjectsCache,
  ) {}

  /** What the page needs before anything else: public values only (the publishable key is public). */
  @Get('config.json')
  async settings(@Param('projectId') projectId: string, @Res() res: Response): Promise<void> {
    const project = await this.project(projectId);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      project_id: project.id,
      project_name: project.name,
      project_key: project.publishableKey,
      auth_url: this.config.http.publicAuthUrl,
      oauth_providers: OAUTH_PROVIDERS.filter(
        (p) => readProviderSettings(this.config, project, p).ok,
      ),
      magic_link: true,
      // settings.oidc.allow_sign_up: the 'Create an account' link and prompt=create.
      sign_up: projectOidcSettings(project.settings).allow_sign_up,
    });
  }

  @Get('assets/:name')
  async asset(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Res() res: Response,
  ): Promise<void> {
    await this.project(projectId);
    const file = this.files.asset(name);
    if (!file) {
      if (!this.files.page()) throw new ProblemError('service-unavailable', { detail: NOT_BUILT });
      throw new ProblemError('not-found', { detail: 'No such asset of the hosted pages.' });
    }
    sendWebAppAsset(res, file);
  }

  @Get(':page')
  async page(
    @Param('projectId') projectId: string,
    @Param('page') name: string,
    @Res() res: Response,
  ): Promise<void> {
    await this.project(projectId);
    if (!PAGES.has(name))
      throw new ProblemError('not-found', {
        detail: 'No such page: the hosted pages are sign-in, consent, signed-out and error.',
      });
    const page = this.files.page();
    if (!page) throw new ProblemError('service-unavailable', { detail: NOT_BUILT });
    sendWebAppPage(
      res,
      page.html,
      hostedPagesCsp(page.nonce, new URL(this.config.http.publicAuthUrl).origin),
    );
  }

  /** The project whose pages these are: it exists and its OpenID Connect provider is on; else 404 (never a 500 for a malformed id). */
  private async project(id: string): Promise<ResolvedProject> {
    const project = UUID.test(id) ? await this.projects.byId(id) : null;
    if (!project || !projectOidcSettings(project.settings).enabled) {
      throw new ProblemError('not-found', {
        detail:
          'No hosted pages here: the project does not exist or has not enabled its OpenID Connect provider.',
      });
    }
    return project;
  }
}
