import { Module } from '@nestjs/common';
import { ProjectsRepository } from './projects.repository';

/** The projects repository on its own, for features that look projects up (keys, organizations). */
@Module({ providers: [ProjectsRepository], exports: [ProjectsRepository] })
export class ProjectsDataModule {}
