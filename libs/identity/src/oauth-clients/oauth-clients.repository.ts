import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { OAuthClient, queryRows } from '@gatehouse/entities';
import { randomToken, safeEqual, sha256Hex } from '@gatehouse/crypto';
import { ProjectRowsRepository } from '../project-rows.repository';
import { isPublicClient } from './oauth-client-rules';

/** A new client's members; its `client_id` and (for a confidential client) its secret are made here. */
export type NewOAuthClient = Pick<
  OAuthClient,
  | 'tenantId'
  | 'projectId'
  | 'name'
  | 'redirectUris'
  | 'postLogoutRedirectUris'
  | 'grantTypes'
  | 'tokenEndpointAuthMethod'
  | 'scopes'
  | 'firstParty'
  | 'idTokenSignedResponseAlg'
> &
  Partial<
    Pick<
      OAuthClient,
      | 'registrationTokenHash'
      | 'selfRegistered'
      | 'defaultAcrValues'
      | 'requirePkce'
      | 'requirePushedAuthorizationRequests'
    >
  >;

/** The members a PATCH may change (never the auth method: public ↔ confidential is a new client). */
export type OAuthClientChanges = Partial<
  Pick<
    OAuthClient,
    | 'name'
    | 'redirectUris'
    | 'postLogoutRedirectUris'
    | 'grantTypes'
    | 'scopes'
    | 'firstParty'
    | 'idTokenSignedResponseAlg'
    | 'requirePkce'
    | 'requirePushedAuthorizationRequests'
  >
>;

/** `oc_` + 128 random bits (base64url): public, unique in the database. */
export function newOAuthClientId(): string {
  return randomToken(16, 'oc_');
}

/** `ocs_` + 256 random bits (base64url); only its SHA-256 is stored. */
export function newOAuthClientSecret(): string {
  return randomToken(32, 'ocs_');
}

/**
 * Whether a presented client secret is the client's, in constant time. A public client (no stored
 * hash) matches nothing.
 */
export function oauthClientSecretMatches(
  row: Pick<OAuthClient, 'secretHash'>,
  presented: string,
): boolean {
  if (!row.secretHash || typeof presented !== 'string') return false;
  return safeEqual(sha256Hex(presented), row.secretHash);
}

/**
 * A string that could be a client id at all: printable ASCII, at most 255 characters. Anything
 * else (a NUL byte PostgreSQL refuses, a megabyte of text) names no client, so it is not looked up.
 */
function plausibleClientId(clientId: unknown): clientId is string {
  return typeof clientId === 'string' && /^[\x21-\x7e]{1,255}$/.test(clientId);
}

/**
 * The only code that queries `oauth_clients`: the admin API's reads and writes (scoped to a tenant
 * and a project) and the OpenID Connect provider's lookup by `client_id` (any project: the caller
 * checks the row's `projectId` against the issuer's project).
 */
@Injectable()
export class OAuthClientsRepository extends ProjectRowsRepository<OAuthClient, OAuthClientChanges> {
  constructor(dataSource: DataSource) {
    super(dataSource, OAuthClient, 'clientId', plausibleClientId);
  }

  /**
   * Inserts a client with a new `client_id`; a confidential client gets a new secret, returned
   * here once and stored as its SHA-256. `secret` is null for a public client.
   */
  async create(
    manager: EntityManager,
    values: NewOAuthClient,
  ): Promise<{ client: OAuthClient; secret: string | null }> {
    const secret = isPublicClient(values) ? null : newOAuthClientSecret();
    const repo = this.repo(manager);
    const client = await repo.save(
      repo.create({
        ...values,
        clientId: newOAuthClientId(),
        secretHash: secret === null ? null : sha256Hex(secret),
        registrationTokenHash: values.registrationTokenHash ?? null,
      }),
    );
    return { client, secret };
  }

  /**
   * Inserts a client registered through the provider's dynamic client registration (RFC 7591),
   * whose `client_id` and secret the provider made; the secret is stored as its SHA-256.
   */
  async insertRegistered(
    manager: EntityManager,
    values: NewOAuthClient & { clientId: string; secret: string | null },
  ): Promise<OAuthClient> {
    const { secret, ...members } = values;
    const repo = this.repo(manager);
    return repo.save(
      repo.create({
        ...members,
        secretHash: secret === null ? null : sha256Hex(secret),
        registrationTokenHash: values.registrationTokenHash ?? null,
      }),
    );
  }

  /**
   * The client with this `client_id`, whatever its project or tenant (the provider resolves the
   * client a request names, then checks `projectId` against the issuer's project), or null.
   */
  async findByClientId(clientId: string, manager?: EntityManager): Promise<OAuthClient | null> {
    if (!plausibleClientId(clientId)) return null;
    return this.repo(manager).findOne({ where: { clientId } });
  }

  /** Deletes a client of this project (its grants go with it: ON DELETE CASCADE); false when there was none. */
  async delete(
    manager: EntityManager,
    tenantId: string,
    projectId: string,
    clientId: string,
  ): Promise<boolean> {
    if (!plausibleClientId(clientId)) return false;
    const rows = await queryRows<{ id: string }>(
      manager,
      `DELETE FROM oauth_clients WHERE tenant_id = $1 AND project_id = $2 AND client_id = $3 RETURNING id`,
      [tenantId, projectId, clientId],
    );
    return rows.length > 0;
  }

  /**
   * A new secret for a confidential client (the old one stops working at once); the secret is
   * returned here once and stored as its SHA-256. Null when the client is public or not of this
   * project (the caller tells the two apart with the row it locked).
   */
  async rotateSecret(
    manager: EntityManager,
    tenantId: string,
    projectId: string,
    clientId: string,
  ): Promise<{ client: OAuthClient; secret: string } | null> {
    if (!plausibleClientId(clientId)) return null;
    const secret = newOAuthClientSecret();
    const rows = await queryRows<{ id: string }>(
      manager,
      `UPDATE oauth_clients SET secret_hash = $4, updated_at = now()
        WHERE tenant_id = $1 AND project_id = $2 AND client_id = $3 AND token_endpoint_auth_method <> 'none'
        RETURNING id`,
      [tenantId, projectId, clientId, sha256Hex(secret)],
    );
    if (!rows.length) return null;
    const client = await this.repo(manager).findOneOrFail({ where: { id: rows[0].id } });
    return { client, secret };
  }
}
