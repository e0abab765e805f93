import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { User } from '@gatehouse/entities';
import { EventRecorder, type RequestMeta, type ResolvedProject } from '@gatehouse/identity';

export interface SignInFailure {
  userId: string | null;
  meta: RequestMeta;
  /** What the failure is about: `{identifier, reason}`, `{method: 'oauth', provider, reason}`… */
  data: Record<string, unknown>;
}

/** The one way every way in records user-level events (audit and outbox, in the caller's transaction). */
@Injectable()
export class UserEvents {
  constructor(private readonly events: EventRecorder) {}

  /** `user.sign_in_failed` (or `user.locked` when a lock starts). */
  async signInFailed(
    manager: EntityManager,
    project: ResolvedProject,
    f: SignInFailure,
    action = 'user.sign_in_failed',
  ): Promise<void> {
    await this.events.record(manager, {
      tenantId: project.tenantId,
      projectId: project.id,
      actorType: 'user',
      actorId: f.userId,
      action,
      resourceType: 'user',
      resourceId: f.userId,
      meta: f.meta,
      data: f.data,
    });
  }

  /** `user.created` by the user signing up (password or a social provider). */
  async created(
    manager: EntityManager,
    project: ResolvedProject,
    user: User,
    meta: RequestMeta,
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    await this.events.record(manager, {
      tenantId: project.tenantId,
      projectId: project.id,
      actorType: 'user',
      actorId: user.id,
      action: 'user.created',
      resourceType: 'user',
      resourceId: user.id,
      meta,
      data: {
        user: { id: user.id, email: user.email, username: user.username, project_id: project.id },
        ...extra,
      },
    });
  }
}
