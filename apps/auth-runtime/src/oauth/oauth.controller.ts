import { Controller, Get, Inject, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { requestMeta, type ResolvedProject } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { setSessionCookies } from '../auth/session-cookies';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyGuard } from '../projects/project-key.guard';
import { ApiFoundRedirect } from '../common/redirect.response';
import { presentedBinding, sendRedirect, setBindingCookie } from './oauth-cookies';
import { OAUTH_TRANSACTION_TTL_MS, OAuthService, type CallbackParams } from './oauth.service';

/** One string parameter of the callback, from the query (GET) or the form body (Apple's form_post). */
function param(source: unknown, name: string): string | null {
  const v =
    source && typeof source === 'object' ? (source as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' && v.length > 0 && v.length <= 4096 ? v : null;
}

function callbackParams(source: unknown): CallbackParams {
  return {
    state: param(source, 'state'),
    code: param(source, 'code'),
    error: param(source, 'error'),
  };
}

const CALLBACK_REDIRECT =
  'Always a redirect once the state is known (a state never issued is 400 invalid-token): session cookies set; or, for a user with MFA, no session and `?mfa_required=true&mfa_token=…`; or `?error=` access_denied, invalid_state, account_exists or provider_error';
const CALLBACK_LOCATION = 'The redirect URL given at authorize, with the query parameters above';

@ApiTags('oauth')
@Controller('v1/auth/oauth')
export class OAuthController {
  constructor(
    private readonly oauth: OAuthService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':provider/authorize')
  @UseGuards(ProjectKeyGuard)
  @ApiOperation({
    summary:
      'Start social sign-in: stores state and PKCE verifier, binds them to the browser, 302 to the provider',
  })
  @ApiQuery({
    name: 'redirect_url',
    required: true,
    description: "One of the project's registered redirect URLs",
  })
  @ApiQuery({
    name: 'project_key',
    required: false,
    description: 'The publishable key (browser navigations cannot send the header)',
  })
  @ApiFoundRedirect(
    'To the provider, with the browser-binding cookie set',
    "The provider's authorization URL with `state`, PKCE `code_challenge` and the project's client id",
  )
  async authorize(
    @CurrentProject() project: ResolvedProject,
    @Param('provider') provider: string,
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const { location, binding } = await this.oauth.authorize(
      project,
      provider,
      query.redirect_url,
      presentedBinding(req),
    );
    setBindingCookie(res, this.config, binding, OAUTH_TRANSACTION_TTL_MS);
    sendRedirect(res, location);
  }

  @Get('callback')
  @ApiOperation({
    summary:
      'Provider redirect: 302 to the stored redirect URL with session cookies, `?error=…`, or `?mfa_required=true&mfa_token=…`',
  })
  @ApiFoundRedirect(CALLBACK_REDIRECT, CALLBACK_LOCATION)
  async callbackGet(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.finish(req, res, callbackParams(req.query));
  }

  @Post('callback')
  @ApiOperation({
    summary: 'Provider form_post (Apple): same as the GET callback, parameters in the form body',
  })
  @ApiFoundRedirect(CALLBACK_REDIRECT, CALLBACK_LOCATION)
  async callbackPost(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.finish(req, res, callbackParams(req.body));
  }

  private async finish(req: Request, res: Response, params: CallbackParams): Promise<void> {
    const { location, session } = await this.oauth.callback(
      params,
      presentedBinding(req),
      requestMeta(req),
    );
    if (session) setSessionCookies(res, this.config, session, this.clock.nowMs());
    sendRedirect(res, location);
  }
}
