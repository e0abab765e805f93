import { Module } from '@nestjs/common';
import { AdminGuard } from '../auth/admin.guard';
import { AuditController } from './audit.controller';
import { AuditEventsRepository } from '@gatehouse/identity';
import { AuditService } from './audit.service';

@Module({
  controllers: [AuditController],
  providers: [AdminGuard, AuditEventsRepository, AuditService],
})
export class AuditModule {}
