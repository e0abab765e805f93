import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EventRecorder, type RequestMeta, type ResolvedProject } from '@gatehouse/identity';

export interface SignInFailure {
  userId: string | null;
  meta: RequestMeta;
  /** What the failure is about: `{identifier, reason}`, `{method: 'oauth', provider, reason}`… */
  data: Record<string, unknown>;
}

/** The one way every sign-in method records `user.sign_in_failed` (audit and outbox). */
@Injectable()
export class SignInFailures {
  constructor(private readonly events: EventRecorder) {}

  async record(manager: EntityManager, project: ResolvedProject, f: SignInFailure, action = 'user.sign_in_failed'): Promise<void> {
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
}
