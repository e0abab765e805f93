import { Module } from '@nestjs/common';
import { AdminGuard } from '../auth/admin.guard';
import { OrganizationsController } from './organizations.controller';
import { OrganizationsRepository } from '@gatehouse/organizations';
import { OrganizationsService } from './organizations.service';

@Module({
  controllers: [OrganizationsController],
  providers: [AdminGuard, OrganizationsRepository, OrganizationsService],
  exports: [OrganizationsRepository],
})
export class OrganizationsModule {}
