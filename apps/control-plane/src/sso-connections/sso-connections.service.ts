import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { encryptSecret, selfSignedCertificate } from '@gatehouse/crypto';
import {
  isId,
  type OidcIdpSettings,
  type Organization,
  type SamlIdpSettings,
  type SsoConnection,
} from '@gatehouse/entities';
import { EventRecorder, type RequestMeta } from '@gatehouse/identity';
import { paginated, type Page } from '@gatehouse/http';
import {
  MAX_METADATA_BYTES,
  normalizeDomain,
  OrganizationDomainsRepository,
  OrganizationsRepository,
  parseIdpMetadata,
  ProjectRolesRepository,
  SamlMetadataError,
  SsoConnectionsRepository,
  type SsoConnectionChanges,
} from '@gatehouse/organizations';
import {
  OAUTH_PRIVATE_ADDRESS_MESSAGE,
  outboundRequest,
  PrivateAddressError,
  refusedUrlHost,
} from '@gatehouse/outbound';
import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from '../auth/admin.guard';
import { adminEvent } from '../common/admin-events';
import type { CreateSsoConnectionDto } from './dto/create-sso-connection.dto';
import type { UpdateSsoConnectionDto } from './dto/update-sso-connection.dto';
import { toSsoConnectionResponse, type SsoConnectionResponse } from './sso-connection.response';

const orgNotFound = () => new ProblemError('not-found', { detail: 'No such organization.' });
const connectionNotFound = () =>
  new ProblemError('not-found', { detail: 'No such SSO connection of this organization.' });
const DEFAULT_SCOPES = ['openid', 'email', 'profile'];
/** The service provider's signing certificate lives ten years; it is replaced by rotation, not by expiry. */
const SP_CERTIFICATE_DAYS = 3650;
const METADATA_TIMEOUT_MS = 10_000;

const sealAad = (id: string, field: string) => `sso:${id}:${field}`;

/** An http(s) URL the outbound rules allow, or the field's error. */
function outboundUrl(raw: string, mode: AppConfig['oauth']['allowPrivateUrls']): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'must be an absolute http or https URL';
  if (url.username || url.password) return 'must not hold credentials';
  if (url.hash) return 'must not have a fragment';
  if (refusedUrlHost(url, mode)) return OAUTH_PRIVATE_ADDRESS_MESSAGE;
  return url;
}

/**
 * Enterprise SSO connections of organizations (docs/api-contract.md §15): their admin routes.
 * Every change locks the organization's row first (the lock order of @gatehouse/organizations):
 * the checks that each domain is a verified domain of the organization and in no other connection
 * of it hold under that lock. Metadata is fetched and the service provider's key made before.
 */
@Injectable()
export class SsoConnectionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsRepository,
    private readonly domains: OrganizationDomainsRepository,
    private readonly connections: SsoConnectionsRepository,
    private readonly roles: ProjectRolesRepository,
    private readonly events: EventRecorder,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private view(c: SsoConnection): SsoConnectionResponse {
    return toSsoConnectionResponse(c, this.config.http.publicAuthUrl);
  }

  private seal(id: string, field: string, value: string): string {
    return encryptSecret(this.config.auth.encryptionKey, value, sealAad(id, field));
  }

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
    return this.organizations.withLockedInTenant(admin.tenantId, organizationId, orgNotFound, work);
  }

  private record(
    manager: EntityManager,
    admin: AdminContext,
    meta: RequestMeta,
    org: Organization,
    action: string,
    c: SsoConnection,
    extra: Record<string, unknown> = {},
  ) {
    return this.events.record(
      manager,
      adminEvent(admin, meta, {
        projectId: org.projectId,
        action,
        resourceType: 'sso_connection',
        resourceId: c.id,
        data: {
          organization: { id: org.id, name: org.name },
          connection: { id: c.id, type: c.type, name: c.name, domains: c.domains },
          ...extra,
        },
      }),
    );
  }

  /** The IdP's settings from metadata given as XML or fetched from a URL (400 on the field that failed). */
  private async samlSettings(
    saml: NonNullable<CreateSsoConnectionDto['saml']>,
    allowIdpInitiated: boolean,
  ): Promise<SamlIdpSettings> {
    const { idp_metadata_xml: xml, idp_metadata_url: rawUrl } = saml;
    if ((xml === undefined) === (rawUrl === undefined))
      throw ProblemError.validation({
        saml: ['must have exactly one of idp_metadata_xml and idp_metadata_url'],
      });
    let document = xml;
    let field = 'saml.idp_metadata_xml';
    let metadataUrl: string | null = null;
    if (rawUrl !== undefined) {
      field = 'saml.idp_metadata_url';
      const url = outboundUrl(rawUrl, this.config.oauth.allowPrivateUrls);
      if (typeof url === 'string') throw ProblemError.validation({ [field]: [url] });
      metadataUrl = url.href;
      document = await this.fetchMetadata(url, field);
    }
    try {
      const parsed = parseIdpMetadata(document!);
      return {
        idp_entity_id: parsed.entityId,
        sso_url: parsed.ssoUrl,
        certificates: parsed.certificates,
        allow_idp_initiated: allowIdpInitiated,
        idp_metadata_url: metadataUrl,
      };
    } catch (err) {
      if (err instanceof SamlMetadataError)
        throw ProblemError.validation({ [field]: [`the metadata ${err.message}`] });
      throw err;
    }
  }

  private async fetchMetadata(url: URL, field: string): Promise<string> {
    try {
      const res = await outboundRequest(
        url,
        {
          method: 'GET',
          headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
        },
        {
          mode: this.config.oauth.allowPrivateUrls,
          timeoutMs: METADATA_TIMEOUT_MS,
          maxBytes: MAX_METADATA_BYTES,
        },
      );
      if (res.status !== 200)
        throw ProblemError.validation({ [field]: [`answered ${res.status}, not the metadata`] });
      return res.body;
    } catch (err) {
      if (err instanceof ProblemError) throw err;
      if (err instanceof PrivateAddressError)
        throw ProblemError.validation({ [field]: [OAUTH_PRIVATE_ADDRESS_MESSAGE] });
      throw ProblemError.validation({
        [field]: [`could not be fetched: ${err instanceof Error ? err.message : String(err)}`],
      });
    }
  }

  private oidcSettings(
    oidc: NonNullable<CreateSsoConnectionDto['oidc']>,
    current: OidcIdpSettings | null,
  ): OidcIdpSettings {
    const issuer = oidc.issuer ?? current?.issuer;
    const clientId = oidc.client_id ?? current?.client_id;
    const errors: Record<string, string[]> = {};
    if (!issuer) errors['oidc.issuer'] = ['is required'];
    else if (oidc.issuer !== undefined) {
      const url = outboundUrl(issuer, this.config.oauth.allowPrivateUrls);
      if (typeof url === 'string') errors['oidc.issuer'] = [url];
      else if (url.search) errors['oidc.issuer'] = ['must not have a query'];
    }
    if (!clientId) errors['oidc.client_id'] = ['is required'];
    if (Object.keys(errors).length) throw ProblemError.validation(errors);
    const scopes = oidc.scopes ?? current?.scopes ?? DEFAULT_SCOPES;
    return {
      issuer: issuer!,
      client_id: clientId!,
      scopes: scopes.includes('openid') ? scopes : ['openid', ...scopes],
    };
  }

  /** The domains, normalised; each a verified domain of the organization, in no other connection of it. */
  private async checkedDomains(
    manager: EntityManager,
    org: Organization,
    raw: string[],
    exceptId: string | null,
  ): Promise<string[]> {
    const verified = new Set(await this.domains.verifiedNames(manager, org.id));
    const domains: string[] = [];
    for (const input of raw) {
      const d = normalizeDomain(input);
      if (!d || !verified.has(d))
        throw ProblemError.validation({
          domains: [
            `${JSON.stringify(input.slice(0, 253))} is not a verified domain of this organization`,
          ],
        });
      if (!domains.includes(d)) domains.push(d);
    }
    const taken = await this.connections.domainsTaken(manager, org.id, domains, exceptId);
    if (taken.length)
      throw new ProblemError('conflict', {
        detail: `Another SSO connection of this organization serves ${taken.join(', ')}.`,
        errors: { domains: taken.map((d) => `${d} is in another connection`) },
      });
    return domains;
  }

  /** Each role the connection gives is a role of the project (taken FOR SHARE, after the organization). */
  private async checkRoles(
    manager: EntityManager,
    org: Organization,
    defaultRole: string,
    groupRoles: Record<string, string>,
  ): Promise<void> {
    if (!(await this.roles.lockAssignable(manager, org.projectId, defaultRole)))
      throw ProblemError.validation({ 'jit.default_role': ['is not a role of this project'] });
    for (const [group, role] of Object.entries(groupRoles))
      if (!(await this.roles.lockAssignable(manager, org.projectId, role)))
        throw ProblemError.validation({
          group_roles: [`the role of "${group.slice(0, 40)}" is not a role of this project`],
        });
  }

  async create(
    admin: AdminContext,
    organizationId: string,
    dto: CreateSsoConnectionDto,
    meta: RequestMeta,
  ): Promise<SsoConnectionResponse> {
    const other = dto.type === 'saml' ? 'oidc' : 'saml';
    if (dto[other] !== undefined)
      throw ProblemError.validation({ [other]: [`is only taken with type ${other}`] });
    const org = await this.org(admin.tenantId, organizationId);
    const id = randomUUID();
    let saml: SamlIdpSettings | null = null;
    let oidc: OidcIdpSettings | null = null;
    let oidcSecret: string | null = null;
    let sp: { certificatePem: string; privateKeyPem: string } | null = null;
    if (dto.type === 'saml') {
      if (!dto.saml) throw ProblemError.validation({ saml: ['is required with type saml'] });
      saml = await this.samlSettings(dto.saml, dto.saml.allow_idp_initiated ?? false);
      sp = await selfSignedCertificate(`Gatehouse SSO ${org.slug}`, SP_CERTIFICATE_DAYS);
    } else {
      if (!dto.oidc) throw ProblemError.validation({ oidc: ['is required with type oidc'] });
      oidc = this.oidcSettings(dto.oidc, null);
      if (dto.oidc.client_secret === undefined)
        throw ProblemError.validation({ 'oidc.client_secret': ['is required'] });
      oidcSecret = this.seal(id, 'oidc_client_secret', dto.oidc.client_secret);
    }
    const created = await this.withLockedOrg(admin, org.id, async (manager, locked) => {
      const domains = await this.checkedDomains(manager, locked, dto.domains ?? [], null);
      const defaultRole = dto.jit?.default_role ?? 'member';
      const groupRoles = dto.group_roles ?? {};
      await this.checkRoles(manager, locked, defaultRole, groupRoles);
      const row = await this.connections.insert(manager, {
        id,
        tenantId: locked.tenantId,
        projectId: locked.projectId,
        organizationId: locked.id,
        type: dto.type,
        name: dto.name.trim(),
        domains,
        enabled: dto.enabled ?? true,
        enforce: dto.enforce ?? false,
        jitEnabled: dto.jit?.enabled ?? true,
        jitDefaultRole: defaultRole,
        attributeMapping: { ...dto.attribute_mapping },
        groupRoles,
        saml,
        oidc,
        oidcClientSecretEncrypted: oidcSecret,
        spCertificate: sp?.certificatePem ?? null,
        spPrivateKeyEncrypted: sp ? this.seal(id, 'sp_private_key', sp.privateKeyPem) : null,
      });
      await this.record(manager, admin, meta, locked, 'sso_connection.created', row);
      return row;
    });
    return this.view(created);
  }

  async list(tenantId: string, organizationId: string, page: Page) {
    const org = await this.org(tenantId, organizationId);
    const [rows, total] = await this.connections.list(org.id, page);
    return paginated(
      'sso_connections',
      rows.map((c) => this.view(c)),
      page,
      total,
    );
  }

  async get(tenantId: string, organizationId: string, connectionId: string) {
    const org = await this.org(tenantId, organizationId);
    const c = isId(connectionId) ? await this.connections.find(org.id, connectionId) : null;
    if (!c) throw connectionNotFound();
    return this.view(c);
  }

  async update(
    admin: AdminContext,
    organizationId: string,
    connectionId: string,
    dto: UpdateSsoConnectionDto,
    meta: RequestMeta,
  ): Promise<SsoConnectionResponse> {
    const org = await this.org(admin.tenantId, organizationId);
    const current = isId(connectionId) ? await this.connections.find(org.id, connectionId) : null;
    if (!current) throw connectionNotFound();
    const other = current.type === 'saml' ? 'oidc' : 'saml';
    if (dto[other] !== undefined)
      throw ProblemError.validation({ [other]: [`is only taken by a ${other} connection`] });
    // New metadata is read before any lock; the IdP-initiated switch alone changes nothing else.
    let saml: SamlIdpSettings | undefined;
    if (dto.saml && current.saml) {
      const allow = dto.saml.allow_idp_initiated ?? current.saml.allow_idp_initiated;
      saml =
        dto.saml.idp_metadata_xml !== undefined || dto.saml.idp_metadata_url !== undefined
          ? await this.samlSettings(dto.saml, allow)
          : { ...current.saml, allow_idp_initiated: allow };
    }
    const oidc = dto.oidc && current.oidc ? this.oidcSettings(dto.oidc, current.oidc) : undefined;
    const updated = await this.withLockedOrg(admin, org.id, async (manager, locked) => {
      const row = isId(connectionId)
        ? await this.connections.lock(manager, locked.id, connectionId)
        : null;
      if (!row) throw connectionNotFound();
      const changes: SsoConnectionChanges = {};
      const described: Record<string, { from: unknown; to: unknown }> = {};
      const change = <K extends keyof SsoConnectionChanges>(
        key: K,
        field: string,
        value: SsoConnectionChanges[K] | undefined,
        shown: (v: SsoConnectionChanges[K]) => unknown = (v) => v,
      ) => {
        if (value === undefined) return;
        const before = row[key as keyof SsoConnection] as SsoConnectionChanges[K];
        // jsonb gives its members back in its own order: compared as values, not as text.
        if (isDeepStrictEqual(before, value)) return;
        changes[key] = value;
        described[field] = { from: shown(before), to: shown(value) };
      };
      change('name', 'name', dto.name?.trim());
      if (dto.domains !== undefined)
        change(
          'domains',
          'domains',
          await this.checkedDomains(manager, locked, dto.domains, row.id),
        );
      change('enabled', 'enabled', dto.enabled);
      change('enforce', 'enforce', dto.enforce);
      change('jitEnabled', 'jit.enabled', dto.jit?.enabled);
      change('jitDefaultRole', 'jit.default_role', dto.jit?.default_role);
      if (dto.attribute_mapping !== undefined)
        change('attributeMapping', 'attribute_mapping', {
          ...row.attributeMapping,
          ...dto.attribute_mapping,
        });
      change('groupRoles', 'group_roles', dto.group_roles);
      const idpView = (s: SamlIdpSettings | null | undefined) =>
        s && { ...s, certificates: s.certificates.length };
      change('saml', 'saml', saml, idpView);
      change('oidc', 'oidc', oidc);
      if (dto.oidc?.client_secret !== undefined) {
        changes.oidcClientSecretEncrypted = this.seal(
          row.id,
          'oidc_client_secret',
          dto.oidc.client_secret,
        );
        described['oidc.client_secret'] = { from: '(sealed)', to: '(replaced)' };
      }
      if (changes.jitDefaultRole !== undefined || changes.groupRoles !== undefined)
        await this.checkRoles(
          manager,
          locked,
          changes.jitDefaultRole ?? row.jitDefaultRole,
          changes.groupRoles ?? row.groupRoles,
        );
      if (!Object.keys(changes).length) return row;
      await this.connections.update(manager, row.id, changes);
      const saved = (await this.connections.find(locked.id, row.id, manager))!;
      await this.record(manager, admin, meta, locked, 'sso_connection.updated', saved, {
        changes: described,
      });
      return saved;
    });
    return this.view(updated);
  }

  async remove(
    admin: AdminContext,
    organizationId: string,
    connectionId: string,
    meta: RequestMeta,
  ): Promise<void> {
    await this.withLockedOrg(admin, organizationId, async (manager, org) => {
      const c = isId(connectionId)
        ? await this.connections.lock(manager, org.id, connectionId)
        : null;
      if (!c) throw connectionNotFound();
      await this.connections.delete(manager, c.id);
      await this.record(manager, admin, meta, org, 'sso_connection.deleted', c);
    });
  }
}
