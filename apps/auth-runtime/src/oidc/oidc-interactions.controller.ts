import { applyDecorators, Body, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ClientMeta, type RequestMeta, type ResolvedProject } from '@gatehouse/identity';
import {
  CurrentAuth,
  ForbiddenWhileImpersonated,
  SessionAuthGuard,
  type SessionAuth,
} from '../auth/session-auth.guard';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyController } from '../projects/project-key-controller';
import { ConsentDto, NoInteractionFieldsDto } from './oidc-interactions.dto';
import { InteractionRedirectResponse, InteractionResponse } from './oidc-interactions.response';
import { OidcInteractionsService } from './oidc-interactions.service';

/** An admin acting as a user sees what the user sees here, but signs them in nowhere else (docs/api-contract.md §13). */
const SIGN_IN_ELSEWHERE = 'An impersonated session cannot sign the user in to other applications.';

/**
 * `POST :uid/<step>` the signed-in user takes (200 `redirect_to`), never an impersonated session.
 * Applied bottom first, as the stack `@Post @HttpCode @UseGuards @ForbiddenWhileImpersonated
 * @ApiBearerAuth @ApiOperation @ApiOkResponse` it replaces.
 */
const SessionStep = (step: string, summary: string): MethodDecorator =>
  applyDecorators(
    ApiOkResponse({ type: InteractionRedirectResponse }),
    ApiOperation({ summary }),
    ApiBearerAuth(),
    ForbiddenWhileImpersonated(SIGN_IN_ELSEWHERE),
    UseGuards(SessionAuthGuard),
    HttpCode(200),
    Post(`:uid/${step}`),
  );

@ProjectKeyController('oidc', 'v1/auth/oidc/interactions')
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

  @SessionStep(
    'complete',
    'Sign the user in to the provider with their session (MFA already satisfied); the browser then navigates to `redirect_to`. First-party clients need no separate consent. 403 reauthentication-required when the client asked for a fresh sign-in, or for `urn:gatehouse:loa:2` (acr_values) and the session has no second factor; 403 forbidden (member `required_acr`) when the user has neither a second factor nor a passkey, or for an impersonated session (docs/api-contract.md §13)',
  )
  complete(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Param('uid') uid: string,
    @Body() _body: NoInteractionFieldsDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<InteractionRedirectResponse> {
    return this.interactions.complete(project, uid, auth, meta);
  }

  @SessionStep(
    'consent',
    'Grant the client the given scopes (a subset of the requested ones); the browser then navigates to `redirect_to`. 403 forbidden for an impersonated session',
  )
  consent(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Param('uid') uid: string,
    @Body() body: ConsentDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<InteractionRedirectResponse> {
    return this.interactions.consent(project, uid, auth, body.scopes, meta);
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
