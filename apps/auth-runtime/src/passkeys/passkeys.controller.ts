import {
  Body,
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
import {
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { requestMeta, type ResolvedProject } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import {
  CurrentAuth,
  RequiresRecentAuthentication,
  SessionAuthGuard,
  type SessionAuth,
} from '../auth/session-auth.guard';
import { setSessionCookies } from '../auth/session-cookies';
import {
  MfaChallengeResponse,
  SignedInResponse,
  signedInBody,
} from '../sign-in/signed-in.response';
import { SignInCompletionService } from '../sign-in/sign-in-completion.service';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyController } from '../projects/project-key-controller';
import { BeginPasskeyAuthenticationDto } from './dto/begin-passkey-authentication.dto';
import { CompletePasskeyAuthenticationDto } from './dto/complete-passkey-authentication.dto';
import { CompletePasskeyRegistrationDto } from './dto/complete-passkey-registration.dto';
import { PasskeysService } from './passkeys.service';
import { PasskeyListResponse, PasskeyResponse } from './passkey.response';
import {
  PasskeyCreationOptionsResponse,
  PasskeyRequestOptionsResponse,
} from './passkey-options.response';

@ProjectKeyController('passkeys', 'v1/auth')
export class PasskeysController {
  constructor(
    private readonly passkeys: PasskeysService,
    private readonly completion: SignInCompletionService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('passkey/register/begin')
  @HttpCode(200)
  @UseGuards(SessionAuthGuard)
  @RequiresRecentAuthentication()
  @ApiOperation({
    summary:
      'PublicKeyCredentialCreationOptions for the signed-in user (challenge valid 5 min); needs a recent authentication',
  })
  @ApiOkResponse({ type: PasskeyCreationOptionsResponse })
  registerBegin(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
  ): Promise<PasskeyCreationOptionsResponse> {
    return this.passkeys.beginRegistration(project, auth);
  }

  @Post('passkey/register/complete')
  @HttpCode(201)
  @ApiCreatedResponse({ type: PasskeyResponse })
  @UseGuards(SessionAuthGuard)
  @RequiresRecentAuthentication()
  @ApiOperation({
    summary:
      'Verify the attestation and store the passkey (201 with the passkey); refused → 400 validation-error',
  })
  registerComplete(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Body() dto: CompletePasskeyRegistrationDto,
    @Req() req: Request,
  ) {
    return this.passkeys.completeRegistration(project, auth, dto, requestMeta(req));
  }

  @Post('passkey/authenticate/begin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'PublicKeyCredentialRequestOptions; omit email for discoverable credentials',
  })
  @ApiOkResponse({ type: PasskeyRequestOptionsResponse })
  authenticateBegin(
    @CurrentProject() project: ResolvedProject,
    @Body() dto: BeginPasskeyAuthenticationDto,
  ): Promise<PasskeyRequestOptionsResponse> {
    return this.passkeys.beginAuthentication(project, dto);
  }

  @Post('passkey/authenticate/complete')
  @HttpCode(200)
  @ApiExtraModels(SignedInResponse, MfaChallengeResponse)
  @ApiOkResponse({
    schema: {
      oneOf: [
        { $ref: getSchemaPath(SignedInResponse) },
        { $ref: getSchemaPath(MfaChallengeResponse) },
      ],
    },
  })
  @ApiOperation({
    summary:
      'Verify the assertion and sign in (satisfies MFA; allowed while password sign-in is locked)',
  })
  async authenticateComplete(
    @CurrentProject() project: ResolvedProject,
    @Body() dto: CompletePasskeyAuthenticationDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const meta = requestMeta(req);
    const user = await this.passkeys.authenticate(project, dto.credential, meta);
    const outcome = await this.completion.complete(project, user, meta, 'passkey');
    if (outcome.kind === 'mfa') return outcome.challenge;
    setSessionCookies(res, this.config, outcome.session, this.clock.nowMs());
    return signedInBody(user, outcome.session);
  }

  @Get('passkeys')
  @UseGuards(SessionAuthGuard)
  @ApiOperation({ summary: "List the caller's passkeys" })
  @ApiOkResponse({ type: PasskeyListResponse })
  list(@CurrentAuth() auth: SessionAuth) {
    return this.passkeys.list(auth);
  }

  @Delete('passkeys/:id')
  @HttpCode(204)
  @UseGuards(SessionAuthGuard)
  @RequiresRecentAuthentication()
  @ApiOperation({
    summary:
      "Remove one of the caller's passkeys (404 when it is not theirs); needs a recent authentication",
  })
  async remove(
    @CurrentAuth() auth: SessionAuth,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.passkeys.remove(auth, id, requestMeta(req));
  }
}
