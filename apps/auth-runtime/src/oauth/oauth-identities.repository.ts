import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OAuthIdentity } from '@gatehouse/entities';

/** The only code that queries `oauth_identities` — unique per (project, provider, subject). */
@Injectable()
export class OAuthIdentitiesRepository {
  find(manager: EntityManager, projectId: string, provider: string, subject: string): Promise<OAuthIdentity | null> {
    return manager.getRepository(OAuthIdentity).findOne({ where: { projectId, provider, subject } });
  }

  create(manager: EntityManager, identity: Pick<OAuthIdentity, 'tenantId' | 'projectId' | 'userId' | 'provider' | 'subject' | 'email' | 'lastUsedAt'>): Promise<OAuthIdentity> {
    return manager.getRepository(OAuthIdentity).save(manager.getRepository(OAuthIdentity).create(identity));
  }

  async touch(manager: EntityManager, id: string, email: string | null, at: Date): Promise<void> {
    await manager.getRepository(OAuthIdentity).update({ id }, { lastUsedAt: at, ...(email !== null ? { email } : {}) });
  }
}
