import { Body, Param, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiServiceUnavailableResponse } from '@nestjs/swagger';
import { ClientMeta, type RequestMeta } from '@gatehouse/identity';
import { parsePage } from '@gatehouse/http';
import { type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { AdminController, AdminRoute } from '../common/admin-route';
import { NoFieldsDto } from '../common/no-fields.dto';
import { DomainListResponse, DomainResponse } from './domain.response';
import { CreateDomainDto } from './dto/create-domain.dto';
import { UpdateDomainDto } from './dto/update-domain.dto';
import { OrganizationDomainsService } from './organization-domains.service';

@AdminController('organization-domains', 'v1/admin/organizations/:id/domains')
export class OrganizationDomainsController {
  constructor(private readonly domains: OrganizationDomainsService) {}

  @AdminRoute.create(
    'Add a domain to the organization (201, pending, with the TXT record that verifies it); one it already has is 409',
    DomainResponse,
    ApiConflictResponse({ description: '`conflict`: the organization already has this domain' }),
  )
  create(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() dto: CreateDomainDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<DomainResponse> {
    return this.domains.create(admin, id, dto, meta);
  }

  @AdminRoute.list("The organization's domains, by domain", DomainListResponse)
  list(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<DomainListResponse> {
    return this.domains.list(admin.tenantId, id, parsePage(query));
  }

  @AdminRoute.get(':domainId', 'Get a domain of the organization', DomainResponse)
  get(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('domainId') domainId: string,
  ): Promise<DomainResponse> {
    return this.domains.get(admin.tenantId, id, domainId);
  }

  @AdminRoute.post(
    ':domainId/verify',
    200,
    'Check the TXT record `_gatehouse-verification.<domain>`: holding the value, the domain is verified; else 409 with what was found',
    DomainResponse,
    ApiConflictResponse({
      description:
        '`conflict`: the TXT record does not hold the value (`found` lists what it holds), or another organization of the project has the domain verified',
    }),
    ApiServiceUnavailableResponse({
      description: '`service-unavailable`: the DNS servers did not answer in time or failed',
    }),
  )
  verify(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('domainId') domainId: string,
    @Body() _body: NoFieldsDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<DomainResponse> {
    return this.domains.verify(admin, id, domainId, meta);
  }

  @AdminRoute.update(
    ':domainId',
    'Verify the domain without DNS (`status: "verified"` with a `reason`, audited) and/or set its `enrollment` and `default_role`',
    DomainResponse,
    ApiConflictResponse({
      description: '`conflict`: another organization of the project has the domain verified',
    }),
  )
  update(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('domainId') domainId: string,
    @Body() dto: UpdateDomainDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<DomainResponse> {
    return this.domains.update(admin, id, domainId, dto, meta);
  }

  @AdminRoute.remove(':domainId', 'Remove a domain from the organization (204); members stay')
  async remove(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('domainId') domainId: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.domains.remove(admin, id, domainId, meta);
  }
}
