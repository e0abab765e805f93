import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { ResolvedProject } from '@gatehouse/identity';
import { normalizeDomain, SsoConnectionsRepository } from '@gatehouse/organizations';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyController } from '../projects/project-key-controller';
import { SsoDiscoverDto, SsoDiscoverResponse } from './sso-discovery.dto';

/** Enterprise SSO sign-in (docs/api-contract.md §15): home-realm discovery. */
@ProjectKeyController('sso', 'v1/auth/sso')
export class SsoController {
  constructor(private readonly connections: SsoConnectionsRepository) {}

  @Post('discover')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "The enabled SSO connection of the email's domain, or null; the answer depends on the domain alone (no account is looked up)",
  })
  @ApiOkResponse({ type: SsoDiscoverResponse })
  async discover(
    @CurrentProject() project: ResolvedProject,
    @Body() dto: SsoDiscoverDto,
  ): Promise<SsoDiscoverResponse> {
    const domain = normalizeDomain(dto.email.slice(dto.email.lastIndexOf('@') + 1));
    const c = domain ? await this.connections.findEnabledByDomain(project.id, domain) : null;
    return {
      connection: c && {
        id: c.id,
        type: c.type,
        organization_id: c.organizationId,
        name: c.name,
      },
    };
  }
}
