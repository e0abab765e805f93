import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type OAuthClient, type TokenEndpointAuthMethod } from '@gatehouse/entities';
import {
  EventRecorder,
  isPublicClient,
  OAUTH_CLIENT_DEFAULTS,
  OAuthClientsRepository,
  oauthClientRuleErrors,
  ProjectsRepository,
  type OAuthClientChanges,
  type RequestMeta,
} from '@gatehouse/identity';
import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from '../auth/admin.guard';
import { adminEvent } from '../common/admin-events';
import { patchRow } from '../common/field-changes';
import { paginated, type Page } from '@gatehouse/http';
import { tenantProject } from '../common/tenant-project';
import { unique } from '../projects/project-settings';
import type { CreateOAuthClientDto } from './dto/create-oauth-client.dto';
import type { UpdateOAuthClientDto } from './dto/update-oauth-client.dto';
import {
  toOAuthClientResponse,
  type OAuthClientCreatedResponse,
  type OAuthClientResponse,
  type OAuthClientSecretRotatedResponse,
} from './oauth-client.response';

const clientNotFound = () =>
  new ProblemError('not-found', { detail: 'No such OAuth client of this project.' });

/** What an event's `data` says about a client: its public members, never the secret or its hash. */
function clientData(c: OAuthClient) {
  const { created_at: _c, updated_at: _u, ...members } = toOAuthClientResponse(c);
  return { oauth_client: { ...members, project_id: c.projectId } };
}

/** The rules between members, on the client as it would be stored: 400 with each problem on its member. */
function assertClientRules(c: {
  grantTypes: readonly string[];
  tokenEndpointAuthMethod: string;
  redirectUris: readonly string[];
  requirePkce: boolean;
}): void {
  const errors = oauthClientRuleErrors(c);
  if (Object.keys(errors).length) throw ProblemError.validation(errors);
}

/** The members a PATCH gives, in stored form (lists de-duplicated in the order given). */
function changesOf(dto: UpdateOAuthClientDto): OAuthClientChanges {
  const changes: OAuthClientChanges = {};
  if (dto.name !== undefined) changes.name = dto.name;
  if (dto.redirect_uris !== undefined) changes.redirectUris = unique(dto.redirect_uris);
  if (dto.post_logout_redirect_uris !== undefined)
    changes.postLogoutRedirectUris = unique(dto.post_logout_redirect_uris);
  if (dto.grant_types !== undefined) changes.grantTypes = unique(dto.grant_types);
  if (dto.scopes !== undefined) changes.scopes = unique(dto.scopes);
  if (dto.first_party !== undefined) changes.firstParty = dto.first_party;
  if (dto.id_token_signed_response_alg !== undefined)
    changes.idTokenSignedResponseAlg = dto.id_token_signed_response_alg;
  if (dto.require_pkce !== undefined) changes.requirePkce = dto.require_pkce;
  if (dto.require_pushed_authorization_requests !== undefined)
    changes.requirePushedAuthorizationRequests = dto.require_pushed_authorization_requests;
  return changes;
}

const SNAKE: Record<keyof OAuthClientChanges, string> = {
  name: 'name',
  redirectUris: 'redirect_uris',
  postLogoutRedirectUris: 'post_logout_redirect_uris',
  grantTypes: 'grant_types',
  scopes: 'scopes',
  firstParty: 'first_party',
  idTokenSignedResponseAlg: 'id_token_signed_response_alg',
  requirePkce: 'require_pkce',
  requirePushedAuthorizationRequests: 'require_pushed_authorization_requests',
};

/**
 * Clients of a project's OpenID Connect provider (docs/api-contract.md §11): scoped to the admin's
 * tenant and the project in the path; a confidential client's secret is shown once (at creation
 * and at each rotation) and stored as its SHA-256; every change writes its audit + outbox event in
 * the same transaction. Signing keys are not this service's business: the provider makes the
 * project's RS256 key when a client first needs it.
 */
@Injectable()
export class OAuthClientsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly projects: ProjectsRepository,
    private readonly clients: OAuthClientsRepository,
    private readonly events: EventRecorder,
  ) {}

  /** The project, then its client locked until the transaction ends; 404 for either missing. */
  private async lock(
    manager: EntityManager,
    admin: AdminContext,
    projectId: string,
    clientId: string,
  ): Promise<OAuthClient> {
    const project = await tenantProject(this.projects, admin.tenantId, projectId, manager);
    const client = await this.clients.lockInProject(manager, admin.tenantId, project.id, clientId);
    if (!client) throw clientNotFound();
    return client;
  }

  private event(
    admin: AdminContext,
    meta: RequestMeta,
    action: string,
    c: OAuthClient,
    data: Record<string, unknown>,
  ) {
    return adminEvent(admin, meta, {
      projectId: c.projectId,
      action,
      resourceType: 'oauth_client',
      resourceId: c.clientId,
      data,
    });
  }

  async create(
    admin: AdminContext,
    projectId: string,
    dto: CreateOAuthClientDto,
    meta: RequestMeta,
  ): Promise<OAuthClientCreatedResponse> {
    const values = {
      name: dto.name,
      redirectUris: unique(dto.redirect_uris),
      postLogoutRedirectUris: unique(dto.post_logout_redirect_uris ?? []),
      grantTypes: unique(dto.grant_types ?? OAUTH_CLIENT_DEFAULTS.grantTypes),
      tokenEndpointAuthMethod: (dto.token_endpoint_auth_method ??
        OAUTH_CLIENT_DEFAULTS.tokenEndpointAuthMethod) as TokenEndpointAuthMethod,
      scopes: unique(dto.scopes ?? OAUTH_CLIENT_DEFAULTS.scopes),
      firstParty: dto.first_party ?? OAUTH_CLIENT_DEFAULTS.firstParty,
      idTokenSignedResponseAlg:
        dto.id_token_signed_response_alg ?? OAUTH_CLIENT_DEFAULTS.idTokenSignedResponseAlg,
      requirePkce: dto.require_pkce ?? OAUTH_CLIENT_DEFAULTS.requirePkce,
      requirePushedAuthorizationRequests:
        dto.require_pushed_authorization_requests ??
        OAUTH_CLIENT_DEFAULTS.requirePushedAuthorizationRequests,
    };
    const { client, secret } = await this.dataSource.transaction(async (manager) => {
      const project = await tenantProject(this.projects, admin.tenantId, projectId, manager);
      assertClientRules(values);
      const made = await this.clients.create(manager, {
        tenantId: admin.tenantId,
        projectId: project.id,
        ...values,
      });
      await this.events.record(
        manager,
        this.event(admin, meta, 'oauth_client.created', made.client, clientData(made.client)),
      );
      return made;
    });
    return secret === null
      ? toOAuthClientResponse(client)
      : { ...toOAuthClientResponse(client), client_secret: secret };
  }

  async list(admin: AdminContext, projectId: string, page: Page) {
    const project = await tenantProject(this.projects, admin.tenantId, projectId);
    const [rows, total] = await this.clients.list(admin.tenantId, project.id, page);
    return paginated('oauth_clients', rows.map(toOAuthClientResponse), page, total);
  }

  async get(
    admin: AdminContext,
    projectId: string,
    clientId: string,
  ): Promise<OAuthClientResponse> {
    const project = await tenantProject(this.projects, admin.tenantId, projectId);
    const client = await this.clients.getInProject(admin.tenantId, project.id, clientId);
    if (!client) throw clientNotFound();
    return toOAuthClientResponse(client);
  }

  /**
   * Applies the given members, then judges the whole client again (a PATCH of `grant_types` alone
   * may break a rule with the stored `redirect_uris`). Nothing changes and no event is written when
   * every given member equals the stored one.
   */
  async update(
    admin: AdminContext,
    projectId: string,
    clientId: string,
    dto: UpdateOAuthClientDto,
    meta: RequestMeta,
  ): Promise<OAuthClientResponse> {
    const given = changesOf(dto);
    const updated = await this.dataSource.transaction(async (manager) => {
      const client = await this.lock(manager, admin, projectId, clientId);
      return patchRow(client, {
        given,
        names: SNAKE,
        check: assertClientRules,
        save: (changes) => this.clients.update(manager, client, changes),
        // `data.changes`: each changed member's `{from, to}` (a client's members hold no secret; the secret rotates on its own route).
        record: (saved, changes) =>
          this.events.record(
            manager,
            this.event(admin, meta, 'oauth_client.updated', saved, {
              ...clientData(saved),
              changes,
            }),
          ),
      });
    });
    return toOAuthClientResponse(updated);
  }

  /** Deletes the client; its grants go with it (the database cascades), so its tokens stop working. */
  async remove(
    admin: AdminContext,
    projectId: string,
    clientId: string,
    meta: RequestMeta,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const client = await this.lock(manager, admin, projectId, clientId);
      await this.clients.delete(manager, admin.tenantId, client.projectId, client.clientId);
      await this.events.record(
        manager,
        this.event(admin, meta, 'oauth_client.deleted', client, clientData(client)),
      );
    });
  }

  /** A new secret for a confidential client, shown once; the old one stops working at once. A public client has none: 409. */
  async rotateSecret(
    admin: AdminContext,
    projectId: string,
    clientId: string,
    meta: RequestMeta,
  ): Promise<OAuthClientSecretRotatedResponse> {
    const { client, secret } = await this.dataSource.transaction(async (manager) => {
      const locked = await this.lock(manager, admin, projectId, clientId);
      if (isPublicClient(locked))
        throw new ProblemError('conflict', {
          detail: 'A public client (token_endpoint_auth_method "none") has no secret to rotate.',
        });
      const rotated = await this.clients.rotateSecret(
        manager,
        admin.tenantId,
        locked.projectId,
        locked.clientId,
      );
      if (!rotated) throw clientNotFound();
      await this.events.record(
        manager,
        this.event(admin, meta, 'oauth_client.secret_rotated', rotated.client, {
          oauth_client: {
            client_id: rotated.client.clientId,
            project_id: rotated.client.projectId,
            name: rotated.client.name,
          },
        }),
      );
      return rotated;
    });
    return { ...toOAuthClientResponse(client), client_secret: secret };
  }
}
