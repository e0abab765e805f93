import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
  UseGuards,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { requestMeta } from '@gatehouse/identity';
import { AdminGuard, type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { NoFieldsDto } from '../common/no-fields.dto';
import { QueryReader } from '../common/query-params';
import { CreateUserDto } from './dto/create-user.dto';
import { ImpersonateUserDto } from './dto/impersonate-user.dto';
import { UpdateUserDto } from './dto/update-user.dto';
import { ImpersonationLinkResponse, UserFactorListResponse } from './user-factor.response';
import { UserDetailResponse, UserListResponse, UserResponse } from './user.response';
import { UsersService } from './users.service';

@ApiTags('users')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('v1/admin/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({
    summary:
      "List the tenant's users, newest first; `q` searches email and username, `project_id` filters",
  })
  @ApiQuery({
    name: 'q',
    required: false,
    description: 'Case-insensitive literal substring of email or username',
  })
  @ApiQuery({ name: 'project_id', required: false })
  @ApiQuery({ name: 'page', required: false })
  @ApiQuery({ name: 'limit', required: false, description: '1–100, default 20' })
  @ApiOkResponse({ type: UserListResponse })
  list(
    @CurrentAdmin() admin: AdminContext,
    @Query() query: Record<string, unknown>,
  ): Promise<UserListResponse> {
    const r = new QueryReader(query);
    const q = r.string('q', 254);
    const projectId = r.string('project_id', 64);
    const page = r.page();
    r.done();
    return this.users.list(admin.tenantId, { q, projectId }, page);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary:
      "Create a user in one of the tenant's projects (201), by the sign-up rules: a password, or none (optionally with a mailed set-password link, `send_invitation`)",
    description:
      "The password follows the sign-up policy (400 `validation-error` on `password`); a taken email or username → 409 `conflict` naming the field; an unknown or other tenant's `project_id` → 404. Event `user.created`.",
  })
  @ApiCreatedResponse({ type: UserResponse, description: 'The admin user resource' })
  create(
    @CurrentAdmin() admin: AdminContext,
    @Body() dto: CreateUserDto,
    @Req() req: Request,
  ): Promise<UserResponse> {
    return this.users.create(admin, dto, requestMeta(req));
  }

  @Post(':id/password-reset')
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Mail the user a password-reset link, the mail `password/forgot` sends (202 `{}`); a disabled user → 409. Audit `user.password_reset_sent`',
  })
  @ApiAcceptedResponse({
    description: '`{}`: the mail is queued',
    schema: { type: 'object', properties: {}, additionalProperties: false },
  })
  async sendPasswordReset(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() _body: NoFieldsDto,
    @Req() req: Request,
  ): Promise<Record<string, never>> {
    await this.users.sendPasswordReset(admin, id, requestMeta(req));
    return {};
  }

  @Post(':id/impersonate')
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Sign in as the user: a one-time link (60 s, single use) to the auth runtime that starts a session of theirs (201) ★',
    description:
      "Needs the admin's recent proof of identity (403 `reauthentication-required`). The session's access tokens carry `act: {sub: <admin id>}`, live at most 15 minutes and cannot be refreshed past 60 minutes after the link was opened; `GET /v1/auth/me` shows `impersonator`, session lists `impersonator_id`. Such a session cannot change the password, email, second factors or passkeys (403 `forbidden`). Another admin of the tenant → 403 `forbidden`; a disabled user → 409. Audit `user.impersonated` with the reason; `session.created` carries `impersonator_id`.",
  })
  @ApiCreatedResponse({ type: ImpersonationLinkResponse })
  @ApiForbiddenResponse({
    description: '`reauthentication-required`, or `forbidden` for an admin of the tenant',
  })
  impersonate(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() dto: ImpersonateUserDto,
    @Req() req: Request,
  ): Promise<ImpersonationLinkResponse> {
    return this.users.impersonate(admin, id, dto, requestMeta(req));
  }

  @Get(':id/factors')
  @ApiOperation({
    summary:
      "The user's second factors: enabled TOTP and SMS, the backup-code set (with `remaining`) and passkeys, oldest first",
  })
  @ApiOkResponse({ type: UserFactorListResponse })
  listFactors(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
  ): Promise<UserFactorListResponse> {
    return this.users.listFactors(admin.tenantId, id);
  }

  @Delete(':id/factors/:factor_id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove one second factor, the backup-code set or one passkey (204) ★',
    description:
      "Needs the admin's recent proof of identity (403 `reauthentication-required`; `POST /v1/auth/reauthenticate` renews it). Removing the last TOTP/SMS factor also removes the backup codes. Events `mfa.disabled` / `passkey.removed`.",
  })
  @ApiParam({ name: 'factor_id', description: 'An `id` from `GET …/factors`' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiForbiddenResponse({
    description:
      "`reauthentication-required`: the admin's proof is older than the console project's `reauthentication_max_age_seconds`",
  })
  async removeFactor(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('factor_id') factorId: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.users.removeFactor(admin, id, factorId, requestMeta(req));
  }

  @Delete(':id/factors')
  @HttpCode(204)
  @ApiOperation({
    summary:
      'Reset MFA: remove every second factor, backup code and passkey of the user (204) ★; their next password sign-in needs no second factor',
    description:
      "Needs the admin's recent proof of identity (403 `reauthentication-required`). Events `mfa.disabled` per factor and `passkey.removed` per passkey, then audit `user.mfa_reset`.",
  })
  @ApiNoContentResponse({ description: 'Every factor removed (none left is also 204)' })
  @ApiForbiddenResponse({ description: '`reauthentication-required`' })
  async removeAllFactors(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.users.removeAllFactors(admin, id, requestMeta(req));
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a user with their active sessions and organizations' })
  @ApiOkResponse({ type: UserDetailResponse })
  get(@CurrentAdmin() admin: AdminContext, @Param('id') id: string): Promise<UserDetailResponse> {
    return this.users.get(admin.tenantId, id);
  }

  @Patch(':id')
  @ApiOperation({
    summary:
      'Update `status` (disabled revokes every session; active also unlocks), `metadata` and/or `email_verified`; event `user.updated` with `data.changes`',
  })
  @ApiOkResponse({ type: UserDetailResponse, description: 'The user as `GET` shows it' })
  update(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() dto: UpdateUserDto,
    @Req() req: Request,
  ): Promise<UserDetailResponse> {
    return this.users.update(admin, id, dto, requestMeta(req));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a user and everything of theirs; their sessions end at once (204)',
  })
  async delete(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.users.delete(admin, id, requestMeta(req));
  }

  @Delete(':id/sessions/:session_id')
  @HttpCode(204)
  @ApiOperation({
    summary:
      "Revoke one of the user's sessions (204): its access and refresh tokens are refused from the next request; 404 when it is not the user's or already ended",
  })
  @ApiParam({
    name: 'session_id',
    description: 'A session of the user, as `GET /v1/admin/users/{id}` lists them',
  })
  @ApiNoContentResponse({ description: 'Revoked; the user stays active' })
  async revokeSession(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('session_id') sessionId: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.users.revokeSession(admin, id, sessionId, requestMeta(req));
  }

  @Delete(':id/sessions')
  @HttpCode(204)
  @ApiOperation({
    summary:
      'Revoke every session of the user (204), signing them out everywhere; the user stays active and may sign in again',
  })
  @ApiNoContentResponse({ description: 'Every live session revoked (none left is also 204)' })
  async revokeSessions(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.users.revokeSessions(admin, id, requestMeta(req));
  }
}
