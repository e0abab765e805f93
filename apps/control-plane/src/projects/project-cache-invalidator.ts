import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApiKeysRepository, ProjectsCache } from '@gatehouse/identity';

/**
 * Drops the shared cache entries of a project — by id, by publishable key and by each live API key,
 * since those entries carry the project's origins and settings too — so the runtime sees a change
 * on the very next call. Called inside the transaction (a cache failure rolls the change back) and
 * again after commit (a reader may have re-cached the old row in between).
 */
@Injectable()
export class ProjectCacheInvalidator {
  private readonly logger = new Logger('ProjectCacheInvalidator');

  constructor(
    private readonly cache: ProjectsCache,
    private readonly apiKeys: ApiKeysRepository,
  ) {}

  /**
   * Inside a transaction, pass its manager: the API keys are read on the transaction's own
   * connection (standalone mode has only one, and a second one would wait for it forever).
   */
  async invalidate(
    project: { id: string; publishableKey: string },
    manager?: EntityManager,
  ): Promise<void> {
    await this.cache.invalidateProject(project);
    for (const hash of await this.apiKeys.liveSecretHashes(project.id, manager))
      await this.cache.invalidateApiKeyHash(hash);
  }

  /** The after-commit pass: the change is durable already, so a cache failure is only logged. */
  async invalidateAfterCommit(project: { id: string; publishableKey: string }): Promise<void> {
    try {
      await this.invalidate(project);
    } catch (err) {
      this.logger.warn(
        `cache invalidation after commit failed for project ${project.id}: ${(err as Error).message}`,
      );
    }
  }
}
