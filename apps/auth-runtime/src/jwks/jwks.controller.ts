import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { publicJwkMembers } from '@gatehouse/crypto';
import {
  SigningKeysService,
  type PublicJwkResponse,
  type ResolvedProject,
} from '@gatehouse/identity';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyGuard } from '../projects/project-key.guard';
import { JwksResponse } from './jwks.response';

@ApiTags('keys')
@UseGuards(ProjectKeyGuard)
@Controller('v1/auth')
export class JwksController {
  constructor(private readonly keys: SigningKeysService) {}

  @Get('jwks.json')
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOperation({
    summary:
      "The project's public signing keys (JWKS): the active ES256 and RS256 keys and the retiring keys still verifying",
  })
  @ApiOkResponse({ type: JwksResponse })
  async jwks(@CurrentProject() project: ResolvedProject): Promise<JwksResponse> {
    const keys = await this.keys.listVerifying(project.id);
    // Stored as generated (generateSigningKey); picked again so that only public members can ever go out.
    return { keys: keys.map((k) => publicJwkMembers(k.publicJwk) as unknown as PublicJwkResponse) };
  }
}
