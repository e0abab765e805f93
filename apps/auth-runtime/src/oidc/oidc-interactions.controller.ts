import { Body, Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { requestMeta, type ResolvedProject } from '@gatehouse/identity';
import {
  CurrentAuth,
  ForbiddenWhileImpersonated,
  SessionAuthGuard,
  type SessionRequest,
} from '../auth/session-auth.guard';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyGuard } from '../projects/project-key.guard';
import { ConsentDto, NoInteractionFieldsDto } from './oidc-interactions.dto';
import { InteractionRedirectResponse, InteractionResponse } from './oidc-interactions.response';
import { OidcInteractionsService } from './oidc-interactions.service';

type Auth = NonNullable<SessionRequest['auth']>;

/** An admin acting as a user sees what the user sees here, but signs them in nowhere else (CONTRACT §13). */
const SIGN_IN_ELSEWHERE = 'An impersonated session cannot sign the user in to other applications.';

@ApiTags('oidc')
@ApiHeader({ name: 'X-Service-Project-Key', required: true })
@UseGuards(ProjectKeyGuard)
@Controller('v1/auth/oidc/interactions')
export class OidcInteractionsController {
  constructor(private readonly interactions: OidcInteractionsService) {}

  @Get(':uid')
  @ApiOperation({
    summary:
      'What the OpenID Connect provider asks of the user: sign in (`login`) or consent (`consent`), for which client and scopes; 400 invalid-token when unknown, finished or expired',
  })
  @ApiOkResponse({ type: InteractionResponse })
  describe(
    @CurrentProject() project: ResolvedProject,
    @Param('uid') uid: string,
  ): Promise<InteractionResponse> {
    return this.interactions.describe(project, uid);
  }

  @Post(':uid/complete')
  @HttpCode(200)
  @UseGuards(SessionAuthGuard)
  @ForbiddenWhileImpersonated(SIGN_IN_ELSEWHERE)
  @ApiBearerAuth()
  @ApiOperation({
    summary:
      'Sign the user in to the provider with their session (MFA already satisfied); the browser then navigates to `redirect_to`. First-party clients need no separate consent. 403 reauthentication-required when the client asked for a fresh sign-in, or for `urn:gatehouse:loa:2` (acr_values) and the session has no second factor; 403 forbidden (member `required_acr`) when the user has neither a second factor nor a passkey, or for an impersonated session (CONTRACT §13)',
  })
  @ApiOkResponse({ type: InteractionRedirectResponse })
  complete(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: Auth,
    @Param('uid') uid: string,
    @Body() _body: NoInteractionFieldsDto,
    @Req() req: Request,
  ): Promise<InteractionRedirectResponse> {
    return this.interactions.complete(project, uid, auth, requestMeta(req));
  }

  @Post(':uid/consent')
  @HttpCode(200)
  @UseGuards(SessionAuthGuard)
  @ForbiddenWhileImpersonated(SIGN_IN_ELSEWHERE)
  @ApiBearerAuth()
  @ApiOperation({
    summary:
      'Grant the client the given scopes (a subset of the requested ones); the browser then navigates to `redirect_to`. 403 forbidden for an impersonated session',
  })
  @ApiOkResponse({ type: InteractionRedirectResponse })
  consent(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: Auth,
    @Param('uid') uid: string,
    @Body() body: ConsentDto,
    @Req() req: Request,
  ): Promise<InteractionRedirectResponse> {
    return this.interactions.consent(project, uid, auth, body.scopes, requestMeta(req));
  }

  @Post(':uid/abort')
  @HttpCode(200)
  @ApiOperation({
    summary: 'The user declines: `redirect_to` ends at the client with error=access_denied',
  })
  @ApiOkResponse({ type: InteractionRedirectResponse })
  abort(
    @CurrentProject() project: ResolvedProject,
    @Param('uid') uid: string,
    @Body() _body: NoInteractionFieldsDto,
  ): Promise<InteractionRedirectResponse> {
    return this.interactions.abort(project, uid);
  }
}
