import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { randomToken } from '@gatehouse/crypto';
import { isId, uniqueViolation } from '@gatehouse/entities';
import type { Organization, OrganizationDomain } from '@gatehouse/entities';
import { EventRecorder, type RequestMeta } from '@gatehouse/identity';
import { paginated, type Page } from '@gatehouse/http';
import {
  normalizeDomain,
  OrganizationDomainsRepository,
  OrganizationsRepository,
  ProjectRolesRepository,
  verificationName,
} from '@gatehouse/organizations';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from '../auth/admin.guard';
import { adminEvent } from '../common/admin-events';
import { DnsTxtLookup } from './dns-txt';
import { toDomainResponse, type DomainResponse } from './domain.response';
import type { CreateDomainDto } from './dto/create-domain.dto';
import type { UpdateDomainDto } from './dto/update-domain.dto';

const orgNotFound = () => new ProblemError('not-found', { detail: 'No such organization.' });
const domainNotFound = () =>
  new ProblemError('not-found', { detail: 'No such domain of this organization.' });
const verifiedElsewhere = () =>
  new ProblemError('conflict', {
    detail: 'Another organization of the project has this domain verified.',
  });
const VERIFIED_UQ = 'organization_domains_verified_uq';

const summary = (org: Organization, d: OrganizationDomain) => ({
  organization: { id: org.id, name: org.name },
  domain: {
    id: d.id,
    domain: d.domain,
    status: d.status,
    enrollment: d.enrollment,
    default_role: d.defaultRole,
  },
});

/**
 * Verified domains of organizations (docs/api-contract.md §14). Every change locks the
 * organization's row first (the lock order of @gatehouse/organizations); the DNS lookup of a
 * verification runs before any lock is taken. A domain is verified for at most one organization of
 * a project: checked, and held by the partial unique index when two verifications race.
 */
@Injectable()
export class OrganizationDomainsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsRepository,
    private readonly domains: OrganizationDomainsRepository,
    private readonly roles: ProjectRolesRepository,
    private readonly events: EventRecorder,
    private readonly dns: DnsTxtLookup,
    private readonly clock: Clock,
  ) {}

  private async org(tenantId: string, organizationId: string): Promise<Organization> {
    const org = isId(organizationId)
      ? await this.organizations.findInTenant(tenantId, organizationId)
      : null;
    if (!org) throw orgNotFound();
    return org;
  }

  private withLockedOrg<T>(
    admin: AdminContext,
    organizationId: string,
    work: (manager: EntityManager, org: Organization) => Promise<T>,
  ): Promise<T> {
    return this.organizations
      .withLockedInTenant(admin.tenantId, organizationId, orgNotFound, work)
      .catch((err: unknown) => {
        if (uniqueViolation(err) === VERIFIED_UQ) throw verifiedElsewhere();
        throw err;
      });
  }

  private async lockDomain(manager: EntityManager, org: Organization, domainId: string) {
    const d = isId(domainId) ? await this.domains.lock(manager, org.id, domainId) : null;
    if (!d) throw domainNotFound();
    return d;
  }

  private record(
    manager: EntityManager,
    admin: AdminContext,
    meta: RequestMeta,
    org: Organization,
    action: string,
    d: OrganizationDomain,
    extra: Record<string, unknown> = {},
  ) {
    return this.events.record(
      manager,
      adminEvent(admin, meta, {
        projectId: org.projectId,
        action,
        resourceType: 'organization_domain',
        resourceId: d.id,
        data: { ...summary(org, d), ...extra },
      }),
    );
  }

  async create(
    admin: AdminContext,
    organizationId: string,
    dto: CreateDomainDto,
    meta: RequestMeta,
  ): Promise<DomainResponse> {
    const domain = normalizeDomain(dto.domain);
    if (!domain)
      throw ProblemError.validation({
        domain: ['must be a hostname with at least one dot, at most 253 characters'],
      });
    const created = await this.withLockedOrg(admin, organizationId, async (manager, org) => {
      const row = await this.domains.insert(manager, {
        tenantId: org.tenantId,
        projectId: org.projectId,
        organizationId: org.id,
        domain,
        verificationValue: `gatehouse-verification=${randomToken(24)}`,
      });
      if (!row)
        throw new ProblemError('conflict', {
          detail: 'This organization already has this domain.',
          errors: { domain: ['is already a domain of this organization'] },
        });
      await this.record(manager, admin, meta, org, 'organization.domain.created', row);
      return row;
    });
    return toDomainResponse(created);
  }

  async list(tenantId: string, organizationId: string, page: Page) {
    const org = await this.org(tenantId, organizationId);
    const [rows, total] = await this.domains.list(org.id, page);
    return paginated('domains', rows.map(toDomainResponse), page, total);
  }

  async get(tenantId: string, organizationId: string, domainId: string) {
    const org = await this.org(tenantId, organizationId);
    const d = isId(domainId) ? await this.domains.find(org.id, domainId) : null;
    if (!d) throw domainNotFound();
    return toDomainResponse(d);
  }

  /** Marks a locked domain verified (once: an already verified one stays as it is) and records it. */
  private async verifyLocked(
    manager: EntityManager,
    admin: AdminContext,
    meta: RequestMeta,
    org: Organization,
    d: OrganizationDomain,
    how: Record<string, unknown>,
  ): Promise<OrganizationDomain> {
    if (d.status === 'verified') return d;
    const owner = await this.domains.verifiedOwner(manager, org.projectId, d.domain);
    if (owner && owner !== org.id) throw verifiedElsewhere();
    await this.domains.markVerified(manager, d.id, this.clock.now());
    const verified = (await this.domains.find(org.id, d.id, manager))!;
    await this.record(manager, admin, meta, org, 'organization.domain.verified', verified, how);
    return verified;
  }

  /**
   * Checks the TXT record `_gatehouse-verification.<domain>`: holding the domain's value, the domain
   * is verified; else 409 saying what was found (the values, or none).
   */
  async verify(
    admin: AdminContext,
    organizationId: string,
    domainId: string,
    meta: RequestMeta,
  ): Promise<DomainResponse> {
    const org = await this.org(admin.tenantId, organizationId);
    const current = isId(domainId) ? await this.domains.find(org.id, domainId) : null;
    if (!current) throw domainNotFound();
    if (current.status === 'verified') return toDomainResponse(current);
    const name = verificationName(current.domain);
    const found = await this.dns.txt(name);
    if (!found.includes(current.verificationValue))
      throw new ProblemError('conflict', {
        detail: found.length
          ? `The TXT record ${name} does not hold the verification value; found: ${found.map((v) => JSON.stringify(v)).join(', ')}.`
          : `No TXT record found at ${name}.`,
        extensions: { found },
      });
    const verified = await this.withLockedOrg(admin, org.id, async (manager, locked) => {
      const d = await this.lockDomain(manager, locked, domainId);
      return this.verifyLocked(manager, admin, meta, locked, d, { method: 'dns_txt' });
    });
    return toDomainResponse(verified);
  }

  /** An admin's verification without DNS (with a reason, audited) and/or the domain's enrollment and default role. */
  async update(
    admin: AdminContext,
    organizationId: string,
    domainId: string,
    dto: UpdateDomainDto,
    meta: RequestMeta,
  ): Promise<DomainResponse> {
    if (dto.status !== undefined && dto.reason === undefined)
      throw ProblemError.validation({ reason: ['is required with status'] });
    if (dto.reason !== undefined && dto.status === undefined)
      throw ProblemError.validation({ reason: ['is only taken with status'] });
    if (dto.reason !== undefined && !/\S/.test(dto.reason))
      throw ProblemError.validation({ reason: ['must not be blank'] });
    const updated = await this.withLockedOrg(admin, organizationId, async (manager, org) => {
      let d = await this.lockDomain(manager, org, domainId);
      if (dto.default_role !== undefined && dto.default_role !== d.defaultRole) {
        if (!(await this.roles.lockAssignable(manager, org.projectId, dto.default_role)))
          throw ProblemError.validation({ default_role: ['is not a role of this project'] });
      }
      if (dto.status === 'verified')
        d = await this.verifyLocked(manager, admin, meta, org, d, {
          method: 'admin',
          reason: dto.reason,
        });
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      if (dto.enrollment !== undefined && dto.enrollment !== d.enrollment)
        changes.enrollment = { from: d.enrollment, to: dto.enrollment };
      if (dto.default_role !== undefined && dto.default_role !== d.defaultRole)
        changes.default_role = { from: d.defaultRole, to: dto.default_role };
      if (!Object.keys(changes).length) return d;
      await this.domains.setEnrollment(manager, d.id, {
        enrollment: dto.enrollment,
        defaultRole: dto.default_role,
      });
      const saved = (await this.domains.find(org.id, d.id, manager))!;
      await this.record(manager, admin, meta, org, 'organization.domain.updated', saved, {
        changes,
      });
      return saved;
    });
    return toDomainResponse(updated);
  }

  async remove(
    admin: AdminContext,
    organizationId: string,
    domainId: string,
    meta: RequestMeta,
  ): Promise<void> {
    await this.withLockedOrg(admin, organizationId, async (manager, org) => {
      const d = await this.lockDomain(manager, org, domainId);
      await this.domains.delete(manager, d.id);
      await this.record(manager, admin, meta, org, 'organization.domain.deleted', d);
    });
  }
}
