import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import {
  AccessTokensService,
  ApiKeyUsage,
  normalizeIdentifier,
  presentedAccessToken,
  projectKeyLookup,
  requestMeta,
  type ResolvedProject,
} from '@gatehouse/identity';
import { rateLimitClient, RateLimitsService } from '@gatehouse/http';
import { RATE_LIMITS } from '../common/rate-limits';
import { Clock } from '@gatehouse/platform';
import {
  MfaChallengeResponse,
  SignedInResponse,
  signedInBody,
  SignedUpResponse,
} from '../sign-in/signed-in.response';
import { setSessionCookies } from '../auth/session-cookies';
import { SignInCompletionService } from '../sign-in/sign-in-completion.service';
import { CurrentProject } from '../projects/current-project.decorator';
import { presentedProjectKey, ProjectKeyGuard } from '../projects/project-key.guard';
import { AccountsService } from './accounts.service';
import { MeResponse, NoCurrentUserResponse } from './me.response';
import { SignInDto } from './dto/sign-in.dto';
import { SignUpDto } from './dto/sign-up.dto';

@ApiTags('accounts')
@ApiHeader({ name: 'X-Service-Project-Key', required: true })
@Controller('v1/auth')
export class AccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly completion: SignInCompletionService,
    private readonly rateLimits: RateLimitsService,
    private readonly tokens: AccessTokensService,
    private readonly apiKeyUsage: ApiKeyUsage,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('sign-up')
  @UseGuards(ProjectKeyGuard)
  @ApiOperation({ summary: 'Create an account with email and password; signs in (201)' })
  @ApiCreatedResponse({ type: SignedUpResponse })
  async signUp(
    @CurrentProject() project: ResolvedProject,
    @Body() dto: SignUpDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    await this.rateLimits.enforce(res, RATE_LIMITS.signUp, [project.id, rateLimitClient(req.ip)]);
    const { user, session } = await this.accounts.signUp(project, dto, requestMeta(req));
    setSessionCookies(res, this.config, session, this.clock.nowMs());
    res.status(201);
    return {
      user: { id: user.id, email: user.email, status: user.status },
      session: {
        id: session.sessionId,
        access_token: session.accessToken,
        expires_at: session.sessionExpiresAt.toISOString(),
      },
    };
  }

  @Post('sign-in')
  @HttpCode(200)
  @UseGuards(ProjectKeyGuard)
  @ApiOperation({
    summary: 'Sign in with identifier and password; or an MFA challenge when the user has MFA',
  })
  @ApiExtraModels(SignedInResponse, MfaChallengeResponse)
  @ApiOkResponse({
    schema: {
      oneOf: [
        { $ref: getSchemaPath(SignedInResponse) },
        { $ref: getSchemaPath(MfaChallengeResponse) },
      ],
    },
  })
  async signIn(
    @CurrentProject() project: ResolvedProject,
    @Body() dto: SignInDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    await this.rateLimits.enforce(res, RATE_LIMITS.signIn, [
      project.id,
      rateLimitClient(req.ip),
      normalizeIdentifier(dto.identifier),
    ]);
    const meta = requestMeta(req);
    const user = await this.accounts.verifyPassword(project, dto, meta);
    const outcome = await this.completion.complete(project, user, meta, 'password');
    if (outcome.kind === 'mfa') return outcome.challenge;
    setSessionCookies(res, this.config, outcome.session, this.clock.nowMs());
    return signedInBody(user, outcome.session);
  }

  @Get('me')
  @ApiOperation({ summary: 'The current user; always 200, `{user: null}` without a valid session' })
  @ApiExtraModels(MeResponse, NoCurrentUserResponse)
  @ApiOkResponse({
    schema: {
      oneOf: [{ $ref: getSchemaPath(MeResponse) }, { $ref: getSchemaPath(NoCurrentUserResponse) }],
    },
  })
  async me(@Req() req: Request): Promise<MeResponse | NoCurrentUserResponse> {
    const key = presentedProjectKey(req, false);
    const lookup = key ? projectKeyLookup(key) : null;
    const presented = presentedAccessToken(req);
    if (!lookup || !presented) return { user: null };
    // Revocation (of the session and of the signing key), the user's status and the key's project
    // (the token's audience) are checked in the one PostgreSQL query that reads the answer: no
    // Redis round trip on this path.
    const verified = await this.tokens.verifySignedClaims(presented.token);
    if (!verified) return { user: null };
    const answer = await this.accounts.me(verified, lookup);
    if (answer.user) this.apiKeyUsage.touch(lookup.secretHash);
    return answer;
  }
}
