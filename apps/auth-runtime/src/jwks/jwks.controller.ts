import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { SigningKeysService, type ResolvedProject } from '@gatehouse/identity';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyGuard } from '../projects/project-key.guard';

@ApiTags('keys')
@UseGuards(ProjectKeyGuard)
@Controller('v1/auth')
export class JwksController {
  constructor(private readonly keys: SigningKeysService) {}

  @Get('jwks.json')
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOperation({ summary: "The project's public signing keys (JWKS): the active key and retiring keys still verifying" })
  async jwks(@CurrentProject() project: ResolvedProject) {
    const keys = await this.keys.listVerifying(project.id);
    return { keys: keys.map((k) => k.publicJwk) };
  }
}
