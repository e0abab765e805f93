import { Body, Param, Query } from '@nestjs/common';
import { ApiForbiddenResponse, ApiNoContentResponse, ApiParam, ApiQuery } from '@nestjs/swagger';
import { ClientMeta, type RequestMeta } from '@gatehouse/identity';
import { type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { AdminController, AdminRoute } from '../common/admin-route';
import { NoFieldsDto } from '../common/no-fields.dto';
import { QueryReader } from '../common/query-params';
import { CreateUserDto } from './dto/create-user.dto';
import { ImpersonateUserDto } from './dto/impersonate-user.dto';
import { UpdateUserDto } from './dto/update-user.dto';
import { ImpersonationLinkResponse, UserFactorListResponse } from './user-factor.response';
import { UserDetailResponse, UserListResponse, UserResponse } from './user.response';
import { UsersService } from './users.service';

@AdminController('users', 'v1/admin/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @AdminRoute.get(
    '',
    "List the tenant's users, newest first; `q` searches email and username, `project_id` filters",
    UserListResponse,
    ApiQuery({
      name: 'q',
      required: false,
      description: 'Case-insensitive literal substring of email or username',
    }),
    ApiQuery({ name: 'project_id', required: false }),
    ApiQuery({ name: 'page', required: false }),
    ApiQuery({ name: 'limit', required: false, description: '1–100, default 20' }),
  )
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

  @AdminRoute.create(
    {
      summary:
        "Create a user in one of the tenant's projects (201), by the sign-up rules: a password, or none (optionally with a mailed set-password link, `send_invitation`)",
      description:
        "The password follows the sign-up policy (400 `validation-error` on `password`); a taken email or username → 409 `conflict` naming the field; an unknown or other tenant's `project_id` → 404. Event `user.created`.",
    },
    { type: UserResponse, description: 'The admin user resource' },
  )
  create(
    @CurrentAdmin() admin: AdminContext,
    @Body() dto: CreateUserDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<UserResponse> {
    return this.users.create(admin, dto, meta);
  }

  @AdminRoute.post(
    ':id/password-reset',
    202,
    'Mail the user a password-reset link, the mail `password/forgot` sends (202 `{}`); a disabled user → 409. Audit `user.password_reset_sent`',
    {
      description: '`{}`: the mail is queued',
      schema: { type: 'object', properties: {}, additionalProperties: false },
    },
  )
  async sendPasswordReset(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() _body: NoFieldsDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<Record<string, never>> {
    await this.users.sendPasswordReset(admin, id, meta);
    return {};
  }

  @AdminRoute.post(
    ':id/impersonate',
    201,
    {
      summary:
        'Sign in as the user: a one-time link (60 s, single use) to the auth runtime that starts a session of theirs (201) ★',
      description:
        "Needs the admin's recent proof of identity (403 `reauthentication-required`). The session's access tokens carry `act: {sub: <admin id>}`, live at most 15 minutes and cannot be refreshed past 60 minutes after the link was opened; `GET /v1/auth/me` shows `impersonator`, session lists `impersonator_id`. Such a session cannot change the password, email, second factors or passkeys (403 `forbidden`). Another admin of the tenant → 403 `forbidden`; a disabled user → 409. Audit `user.impersonated` with the reason; `session.created` carries `impersonator_id`.",
    },
    ImpersonationLinkResponse,
    ApiForbiddenResponse({
      description: '`reauthentication-required`, or `forbidden` for an admin of the tenant',
    }),
  )
  impersonate(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() dto: ImpersonateUserDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<ImpersonationLinkResponse> {
    return this.users.impersonate(admin, id, dto, meta);
  }

  @AdminRoute.get(
    ':id/factors',
    "The user's second factors: enabled TOTP and SMS, the backup-code set (with `remaining`) and passkeys, oldest first",
    UserFactorListResponse,
  )
  listFactors(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
  ): Promise<UserFactorListResponse> {
    return this.users.listFactors(admin.tenantId, id);
  }

  @AdminRoute.remove(
    ':id/factors/:factor_id',
    {
      summary: 'Remove one second factor, the backup-code set or one passkey (204) ★',
      description:
        "Needs the admin's recent proof of identity (403 `reauthentication-required`; `POST /v1/auth/reauthenticate` renews it). Removing the last TOTP/SMS factor also removes the backup codes. Events `mfa.disabled` / `passkey.removed`.",
    },
    ApiParam({ name: 'factor_id', description: 'An `id` from `GET …/factors`' }),
    ApiNoContentResponse({ description: 'Removed' }),
    ApiForbiddenResponse({
      description:
        "`reauthentication-required`: the admin's proof is older than the console project's `reauthentication_max_age_seconds`",
    }),
  )
  async removeFactor(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('factor_id') factorId: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.users.removeFactor(admin, id, factorId, meta);
  }

  @AdminRoute.remove(
    ':id/factors',
    {
      summary:
        'Reset MFA: remove every second factor, backup code and passkey of the user (204) ★; their next password sign-in needs no second factor',
      description:
        "Needs the admin's recent proof of identity (403 `reauthentication-required`). Events `mfa.disabled` per factor and `passkey.removed` per passkey, then audit `user.mfa_reset`.",
    },
    ApiNoContentResponse({ description: 'Every factor removed (none left is also 204)' }),
    ApiForbiddenResponse({ description: '`reauthentication-required`' }),
  )
  async removeAllFactors(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.users.removeAllFactors(admin, id, meta);
  }

  @AdminRoute.get(
    ':id',
    'Get a user with their active sessions and organizations',
    UserDetailResponse,
  )
  get(@CurrentAdmin() admin: AdminContext, @Param('id') id: string): Promise<UserDetailResponse> {
    return this.users.get(admin.tenantId, id);
  }

  @AdminRoute.update(
    ':id',
    'Update `status` (disabled revokes every session; active also unlocks), `metadata` and/or `email_verified`; event `user.updated` with `data.changes`',
    { type: UserDetailResponse, description: 'The user as `GET` shows it' },
  )
  update(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() dto: UpdateUserDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<UserDetailResponse> {
    return this.users.update(admin, id, dto, meta);
  }

  @AdminRoute.remove(
    ':id',
    'Delete a user and everything of theirs; their sessions end at once (204)',
  )
  async delete(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.users.delete(admin, id, meta);
  }

  @AdminRoute.remove(
    ':id/sessions/:session_id',
    "Revoke one of the user's sessions (204): its access and refresh tokens are refused from the next request; 404 when it is not the user's or already ended",
    ApiParam({
      name: 'session_id',
      description: 'A session of the user, as `GET /v1/admin/users/{id}` lists them',
    }),
    ApiNoContentResponse({ description: 'Revoked; the user stays active' }),
  )
  async revokeSession(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('session_id') sessionId: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.users.revokeSession(admin, id, sessionId, meta);
  }

  @AdminRoute.remove(
    ':id/sessions',
    'Revoke every session of the user (204), signing them out everywhere; the user stays active and may sign in again',
    ApiNoContentResponse({ description: 'Every live session revoked (none left is also 204)' }),
  )
  async revokeSessions(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.users.revokeSessions(admin, id, meta);
  }
}
