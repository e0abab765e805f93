import { Injectable } from '@nestjs/common';
import type { AdapterPayload } from 'oidc-provider';
import { DataSource } from 'typeorm';
import {
  EventRecorder,
  ID_TOKEN_SIGNING_ALGS,
  OAUTH_CLIENT_AUTH_METHODS,
  OAUTH_CLIENT_MAX_LIST,
  OAUTH_CLIENT_SCOPES,
  OAUTH_GRANT_TYPES,
  OAuthClientsRepository,
  oauthClientRuleErrors,
  redirectUrlProblem,
  type RequestMeta,
  type ResolvedProject,
} from '@gatehouse/identity';
import type { TokenEndpointAuthMethod } from '@gatehouse/entities';
import { ACR_VALUES } from './oidc-grant-policy';
import { oidcLibrary } from './oidc-library';

/** Metadata the provider would accept but Gatehouse does not store or honour: refused rather than silently dropped. */
const UNSUPPORTED_METADATA = [
  'jwks',
  'jwks_uri',
  'sector_identifier_uri',
  'request_uris',
  'logo_uri',
  'client_uri',
  'policy_uri',
  'tos_uri',
  'initiate_login_uri',
  'backchannel_logout_uri',
  'frontchannel_logout_uri',
  'userinfo_signed_response_alg',
  'request_object_signing_alg',
] as const;

function strings(value: unknown, member: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw invalidMetadata(`${member} must be an array of strings`);
  if (value.length > OAUTH_CLIENT_MAX_LIST)
    throw invalidMetadata(`${member} must list at most ${OAUTH_CLIENT_MAX_LIST} values`);
  return [...new Set(value as string[])];
}

function invalidMetadata(message: string): Error {
  return new (oidcLibrary().errors.InvalidClientMetadata)(message);
}

/**
 * A client registered through the provider's dynamic client registration (RFC 7591, when the
 * project's `settings.oidc.dynamic_registration` is on) is stored as the admin API stores one, by
 * the same rules: the project's redirect URL rules, the known grant types, auth methods and scopes,
 * never first-party (a client that registers itself never skips consent), secret as its SHA-256.
 */
@Injectable()
export class OidcRegistration {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clients: OAuthClientsRepository,
    private readonly events: EventRecorder,
  ) {}

  async register(
    project: ResolvedProject,
    clientId: string,
    payload: AdapterPayload,
    meta: RequestMeta,
  ): Promise<void> {
    const unsupported = UNSUPPORTED_METADATA.filter((member) => payload[member] !== undefined);
    if (unsupported.length) throw invalidMetadata(`not supported here: ${unsupported.join(', ')}`);
    const redirectUris = strings(payload.redirect_uris, 'redirect_uris');
    const postLogoutRedirectUris = strings(
      payload.post_logout_redirect_uris,
      'post_logout_redirect_uris',
    );
    for (const uri of [...redirectUris, ...postLogoutRedirectUris]) {
      const problem = redirectUrlProblem(uri);
      if (problem) throw new (oidcLibrary().errors.InvalidRedirectUri)(`${uri} ${problem}`);
    }
    const grantTypes = strings(payload.grant_types, 'grant_types');
    if (grantTypes.some((g) => !(OAUTH_GRANT_TYPES as readonly string[]).includes(g)))
      throw invalidMetadata(`grant_types must be among ${OAUTH_GRANT_TYPES.join(', ')}`);
    const method = String(payload.token_endpoint_auth_method ?? 'client_secret_basic');
    if (!(OAUTH_CLIENT_AUTH_METHODS as readonly string[]).includes(method))
      throw invalidMetadata(
        `token_endpoint_auth_method must be one of ${OAUTH_CLIENT_AUTH_METHODS.join(', ')}`,
      );
    const scopes =
      typeof payload.scope === 'string'
        ? [...new Set(payload.scope.split(' ').filter(Boolean))]
        : [...OAUTH_CLIENT_SCOPES];
    if (scopes.some((s) => !(OAUTH_CLIENT_SCOPES as readonly string[]).includes(s)))
      throw invalidMetadata(`scope must be among ${OAUTH_CLIENT_SCOPES.join(' ')}`);
    // OpenID Connect Dynamic Client Registration §2: RS256 when the client does not say.
    const alg = String(payload.id_token_signed_response_alg ?? 'RS256');
    if (!(ID_TOKEN_SIGNING_ALGS as readonly string[]).includes(alg))
      throw invalidMetadata(
        `id_token_signed_response_alg must be one of ${ID_TOKEN_SIGNING_ALGS.join(', ')}`,
      );
    const rules = oauthClientRuleErrors({
      grantTypes,
      tokenEndpointAuthMethod: method,
      redirectUris,
    });
    const firstRule = Object.entries(rules)[0];
    if (firstRule) throw invalidMetadata(`${firstRule[0]} ${firstRule[1][0]}`);
    const defaultAcrValues = strings(payload.default_acr_values, 'default_acr_values');
    if (defaultAcrValues.some((v) => !(ACR_VALUES as readonly string[]).includes(v)))
      throw invalidMetadata(`default_acr_values must be among ${ACR_VALUES.join(' ')}`);
    const name =
      typeof payload.client_name === 'string' && payload.client_name.trim()
        ? payload.client_name.trim().slice(0, 100)
        : 'Registered client';
    const secret =
      method === 'none'
        ? null
        : typeof payload.client_secret === 'string'
          ? payload.client_secret
          : null;
    if (method !== 'none' && !secret) throw invalidMetadata('a confidential client needs a secret');

    await this.dataSource.transaction(async (manager) => {
      const client = await this.clients.insertRegistered(manager, {
        tenantId: project.tenantId,
        projectId: project.id,
        clientId,
        secret,
        name,
        redirectUris,
        postLogoutRedirectUris,
        grantTypes,
        tokenEndpointAuthMethod: method as TokenEndpointAuthMethod,
        scopes,
        firstParty: false,
        idTokenSignedResponseAlg: alg,
        selfRegistered: true,
        defaultAcrValues,
        // RFC 9126 §6: a client may register to be refused authorization requests that were not pushed.
        requirePushedAuthorizationRequests: payload.require_pushed_authorization_requests === true,
      });
      await this.events.record(manager, {
        tenantId: project.tenantId,
        projectId: project.id,
        actorType: 'system',
        actorId: null,
        action: 'oauth_client.created',
        resourceType: 'oauth_client',
        resourceId: client.clientId,
        meta,
        data: {
          client_id: client.clientId,
          name,
          dynamic_registration: true,
          redirect_uris: redirectUris,
          grant_types: grantTypes,
          token_endpoint_auth_method: method,
          ...(defaultAcrValues.length ? { default_acr_values: defaultAcrValues } : {}),
        },
      });
    });
  }
}
