import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { requestMeta } from '@gatehouse/identity';
import { AdminGuard, type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { QueryReader } from '../common/query-params';
import { UpdateUserDto } from './dto/update-user.dto';
import { UserDetailResponse, UserListResponse } from './user.response';
import { UsersService } from './users.service';

@ApiTags('users')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('v1/admin/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: "List the tenant's users, newest first; `q` searches email and username, `project_id` filters" })
  @ApiQuery({ name: 'q', required: false, description: 'Case-insensitive literal substring of email or username' })
  @ApiQuery({ name: 'project_id', required: false })
  @ApiQuery({ name: 'page', required: false })
  @ApiQuery({ name: 'limit', required: false, description: '1–100, default 20' })
  @ApiOkResponse({ type: UserListResponse })
  list(@CurrentAdmin() admin: AdminContext, @Query() query: Record<string, unknown>): Promise<UserListResponse> {
    const r = new QueryReader(query);
    const q = r.string('q', 254);
    const projectId = r.string('project_id', 64);
    const page = r.page();
    r.done();
    return this.users.list(admin.tenantId, { q, projectId }, page);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a user with their active sessions and organizations' })
  @ApiOkResponse({ type: UserDetailResponse })
  get(@CurrentAdmin() admin: AdminContext, @Param('id') id: string): Promise<UserDetailResponse> {
    return this.users.get(admin.tenantId, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Update `status` (disabled revokes every session; active also unlocks) and/or `metadata`' })
  @ApiOkResponse({ type: UserDetailResponse, description: 'The user as `GET` shows it' })
  update(@CurrentAdmin() admin: AdminContext, @Param('id') id: string, @Body() dto: UpdateUserDto, @Req() req: Request): Promise<UserDetailResponse> {
    return this.users.update(admin, id, dto, requestMeta(req));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a user and everything of theirs; their sessions end at once (204)' })
  async delete(@CurrentAdmin() admin: AdminContext, @Param('id') id: string, @Req() req: Request): Promise<void> {
    await this.users.delete(admin, id, requestMeta(req));
  }

  @Delete(':id/sessions/:session_id')
  @HttpCode(204)
  @ApiOperation({ summary: "Revoke one of the user's sessions (204): its access and refresh tokens are refused from the next request; 404 when it is not the user's or already ended" })
  @ApiParam({ name: 'session_id', description: 'A session of the user, as `GET /v1/admin/users/{id}` lists them' })
  @ApiNoContentResponse({ description: 'Revoked; the user stays active' })
  async revokeSession(@CurrentAdmin() admin: AdminContext, @Param('id') id: string, @Param('session_id') sessionId: string, @Req() req: Request): Promise<void> {
    await this.users.revokeSession(admin, id, sessionId, requestMeta(req));
  }

  @Delete(':id/sessions')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke every session of the user (204), signing them out everywhere; the user stays active and may sign in again' })
  @ApiNoContentResponse({ description: 'Every live session revoked (none left is also 204)' })
  async revokeSessions(@CurrentAdmin() admin: AdminContext, @Param('id') id: string, @Req() req: Request): Promise<void> {
    await this.users.revokeSessions(admin, id, requestMeta(req));
  }
}
