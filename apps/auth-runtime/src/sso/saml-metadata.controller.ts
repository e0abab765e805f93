import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { generateServiceProviderMetadata } from '@node-saml/node-saml';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { decryptSecretString } from '@gatehouse/crypto';
import { isId } from '@gatehouse/entities';
import { SsoConnectionsRepository, ssoUrls } from '@gatehouse/organizations';
import { ProblemError } from '@gatehouse/problem-details';

const SAML_METADATA_TYPE = 'application/samlmetadata+xml';

/**
 * The SAML service provider of each SAML connection (docs/api-contract.md §15): its metadata, for
 * the IdP's administrator (or the IdP itself) to read. Public: an IdP fetches it without a key.
 */
@ApiTags('sso')
@Controller('v1/sso/saml')
export class SamlMetadataController {
  constructor(
    private readonly connections: SsoConnectionsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':connectionId/metadata')
  @ApiOperation({
    summary:
      "The service provider's SAML metadata for a SAML connection: its entity id, its HTTP-POST assertion consumer service and its signing certificate (AuthnRequests are signed; assertions must be)",
  })
  @ApiOkResponse({ content: { [SAML_METADATA_TYPE]: { schema: { type: 'string' } } } })
  async metadata(
    @Param('connectionId') connectionId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const c = isId(connectionId) ? await this.connections.findById(connectionId) : null;
    if (!c || c.type !== 'saml' || !c.spCertificate || !c.spPrivateKeyEncrypted)
      throw new ProblemError('not-found', { detail: 'No such SAML connection.' });
    const sp = ssoUrls(this.config.http.publicAuthUrl, c.id);
    const xml = generateServiceProviderMetadata({
      issuer: sp.entityId,
      callbackUrl: sp.acsUrl,
      publicCerts: c.spCertificate,
      // Read only to say that AuthnRequests are signed; the metadata itself is not signed.
      privateKey: decryptSecretString(
        this.config.auth.encryptionKey,
        c.spPrivateKeyEncrypted,
        `sso:${c.id}:sp_private_key`,
      ),
      wantAssertionsSigned: true,
      identifierFormat: null,
    });
    res.type(SAML_METADATA_TYPE);
    res.setHeader('Cache-Control', 'public, max-age=300');
    return xml;
  }
}
