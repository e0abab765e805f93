import {
  applyDecorators,
  Controller,
  UseGuards,
  type CanActivate,
  type Type,
} from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { ProjectKeyGuard } from './project-key.guard';

/**
 * A controller of the client API at `path`: OpenAPI tag `tag` and the project-key header, and
 * `ProjectKeyGuard` (then `guards`, e.g. `SessionAuthGuard`) on every route. Applied bottom first,
 * as the stack `@ApiTags @ApiHeader @UseGuards @Controller` it replaces.
 */
export const ProjectKeyController = (
  tag: string,
  path: string,
  ...guards: Type<CanActivate>[]
): ClassDecorator =>
  applyDecorators(
    Controller(path),
    UseGuards(ProjectKeyGuard, ...guards),
    ApiHeader({ name: 'X-Service-Project-Key', required: true }),
    ApiTags(tag),
  );
