import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';
import { Given } from './sso-connection-parts.dto';
import { CreateSsoConnectionDto } from './create-sso-connection.dto';

/**
 * `PATCH …/sso-connections/{cid}`: any member of the create body but `type` (a connection keeps its
 * type). `jit`, `attribute_mapping`, `saml` and `oidc` change member by member; new metadata
 * (`saml.idp_metadata_xml` or `_url`) replaces the IdP's entity id, SSO URL and certificates;
 * `group_roles` is replaced whole.
 */
export class UpdateSsoConnectionDto extends OmitType(CreateSsoConnectionDto, ['type', 'name']) {
  @ApiPropertyOptional({ example: 'Acme Okta', minLength: 1, maxLength: 200 })
  @Given()
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'must not be blank' })
  name?: string;
}
