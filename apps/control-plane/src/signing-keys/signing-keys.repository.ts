import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SigningKey } from '@gatehouse/entities';
import type { Page } from '../common/pagination';

/** The only code of the control plane that reads `signing_keys` (rotation goes through SigningKeysService). */
@Injectable()
export class SigningKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  list(tenantId: string, projectId: string, page: Page): Promise<[SigningKey[], number]> {
    return this.dataSource.getRepository(SigningKey).findAndCount({
      where: { tenantId, projectId },
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: page.offset,
      take: page.limit,
    });
  }
}
