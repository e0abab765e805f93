import {
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiCookieAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import {
  ApiKeyUsage,
  originToCheck,
  projectKeyLookup,
  ProjectsCache,
  REFRESH_COOKIE,
  requestMeta,
} from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { requestCookie, setRequestTenant } from '@gatehouse/http';
import { ProblemError } from '@gatehouse/problem-details';
import { CurrentAuth, SessionAuthGuard, type SessionAuth } from '../auth/session-auth.guard';
import { clearSessionCookies, setSessionCookies } from '../auth/session-cookies';
import {
  presentedProjectKey,
  ProjectKeyGuard,
  projectKeyRequired,
  type ProjectRequest,
} from '../projects/project-key.guard';
import { RefreshKeyGuard } from './refresh-key.guard';
import { AccessTokenResponse, SessionListResponse } from './session.response';
import { SessionsService } from './sessions.service';

@ApiTags('sessions')
@ApiHeader({ name: 'X-Service-Project-Key', required: true })
@Controller('v1/auth')
export class SessionsController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly apiKeyUsage: ApiKeyUsage,
    private readonly projects: ProjectsCache,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('sign-out')
  @HttpCode(204)
  @UseGuards(ProjectKeyGuard, SessionAuthGuard)
  @ApiOperation({ summary: 'Revoke the current session and clear the cookies (204)' })
  async signOut(
    @CurrentAuth() auth: SessionAuth,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    await this.sessions.revokeOwn(auth, auth.sid, requestMeta(req), 'sign_out');
    clearSessionCookies(res, this.config);
  }

  @Post('refresh')
  @HttpCode(200)
  @ApiOkResponse({ type: AccessTokenResponse })
  @UseGuards(RefreshKeyGuard)
  @ApiCookieAuth()
  @ApiOperation({ summary: 'Rotate the refresh token cookie and issue a new access token' })
  async refresh(@Req() req: ProjectRequest, @Res({ passthrough: true }) res: Response) {
    // No ProjectKeyGuard: the rotation statement resolves the key and applies the CSRF rule itself,
    // so a refresh costs one PostgreSQL round trip and no Redis one.
    const key = presentedProjectKey(req, false);
    const lookup = key ? projectKeyLookup(key) : null;
    if (!key || !lookup) throw projectKeyRequired();
    const cookie = requestCookie(req, REFRESH_COOKIE);
    if (cookie === null) {
      // Without a cookie there is no statement to resolve the key in: resolve it here, so an
      // unknown or revoked key gets the one 401 body whether or not a cookie was sent.
      if (!(await this.projects.byKey(key))) throw projectKeyRequired();
      throw new ProblemError('unauthenticated', { detail: 'The refresh token cookie is missing.' });
    }
    const issued = await this.sessions.refresh(
      lookup,
      originToCheck(req, 'cookie'),
      cookie,
      requestMeta(req),
    );
    this.apiKeyUsage.touch(lookup.secretHash);
    setRequestTenant(req, issued.tenantId);
    setSessionCookies(res, this.config, issued, this.clock.nowMs());
    return { access_token: issued.accessToken, expires_in: issued.expiresIn };
  }

  @Get('sessions')
  @UseGuards(ProjectKeyGuard, SessionAuthGuard)
  @ApiOperation({ summary: "List the caller's active sessions" })
  @ApiOkResponse({ type: SessionListResponse })
  list(@CurrentAuth() auth: SessionAuth) {
    return this.sessions.listActive(auth.sub, auth.sid);
  }

  @Delete('sessions/:id')
  @HttpCode(204)
  @UseGuards(ProjectKeyGuard, SessionAuthGuard)
  @ApiOperation({ summary: "Revoke one of the caller's sessions (404 when it is not theirs)" })
  async revoke(
    @CurrentAuth() auth: SessionAuth,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.sessions.revokeOwn(auth, id, requestMeta(req), 'user_revoked');
  }
}
