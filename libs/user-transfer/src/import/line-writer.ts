import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Project } from '@gatehouse/entities';
import {
  EventRecorder,
  SessionRevocation,
  UsersRepository,
  type RequestMeta,
} from '@gatehouse/identity';
import { decideOnMatches, LineConflict, planUpdate, type OnConflict } from './conflict-policy';
import { ImportCredentialWriter } from './credential-writer';
import type { ParsedLine } from './line-parser';

/** Who imports: an admin (the API), or the system (`userId` null: the CLI, run on the server). */
export interface ImportActor {
  tenantId: string;
  userId: string | null;
  meta: RequestMeta;
}

export type LineOutcome =
  | { kind: 'created' | 'updated' | 'skipped'; credentialsKept?: boolean }
  | { kind: 'conflict'; detail: string };

/** One import line written, as the conflict policy decides: created, updated, skipped or a conflict. */
@Injectable()
export class ImportLineWriter {
  constructor(
    private readonly users: UsersRepository,
    private readonly credentials: ImportCredentialWriter,
    private readonly events: EventRecorder,
    private readonly revocation: SessionRevocation,
  ) {}

  /** One line, in the caller's savepoint (a LineConflict thrown here undoes what the line wrote). */
  async write(
    manager: EntityManager,
    project: Project,
    line: ParsedLine,
    options: { onConflict: OnConflict; emitEvents: boolean },
    actor: ImportActor,
  ): Promise<LineOutcome> {
    const { dto } = line;
    const decision = decideOnMatches(
      await this.users.findImportMatches(manager, project.id, line.email, dto.external_id ?? null),
      options.onConflict,
    );
    if (decision.kind === 'skip') return { kind: 'skipped' };
    if (decision.kind === 'conflict') return decision;
    let userId: string;
    let account = true;
    let credentialsKept = false;
    if (decision.kind === 'update') {
      userId = decision.userId;
      const current = await this.users.lockForImportUpdate(manager, userId);
      const plan = planUpdate(line, current, { userId, actorUserId: actor.userId });
      // Thrown inside the line's savepoint: nothing of the line is written.
      if (plan.kind === 'conflict') throw new LineConflict(plan.detail);
      ({ account, credentialsKept } = plan);
      if (account) {
        await this.users.updateImported(manager, userId, {
          email: line.email,
          emailVerified: dto.email_verified,
          ...(dto.username !== undefined ? { username: line.username } : {}),
          metadata: dto.metadata,
          externalId: dto.external_id ?? null,
        });
      } else {
        // Theirs now: the email, its verification, the username and every credential stay; the profile is updated.
        await this.users.updateImported(manager, userId, {
          metadata: dto.metadata,
          externalId: dto.external_id ?? null,
        });
      }
      if (plan.disable) await this.disable(manager, project, userId, actor);
    } else {
      userId = await this.users.insertImported(manager, {
        tenantId: project.tenantId,
        projectId: project.id,
        email: line.email,
        emailVerified: dto.email_verified ?? false,
        username: line.username,
        metadata: dto.metadata ?? {},
        externalId: dto.external_id ?? null,
        createdAt: dto.created_at ? new Date(dto.created_at) : null,
        // No hash: the password lives in the old system, asked at the first sign-in (lazy migration).
        needsMigration: line.hash === null,
        status: dto.status ?? 'active',
      });
    }
    const kind = decision.kind === 'update' ? 'updated' : 'created';
    if (account) await this.credentials.write(manager, project, userId, line, kind);
    if (options.emitEvents) {
      if (kind === 'created') await this.userCreated(manager, project, userId, line.email);
      else
        await this.events.record(manager, {
          ...userEvent(project, userId, line.email),
          action: 'user.updated',
        });
    }
    return { kind, credentialsKept };
  }

  /** `user.created` of an imported user (`emit_events`). */
  userCreated(
    manager: EntityManager,
    project: Project,
    userId: string,
    email: string,
  ): Promise<string> {
    return this.events.record(manager, {
      ...userEvent(project, userId, email),
      action: 'user.created',
    });
  }

  /**
   * An update line says the user is disabled in the system they come from: disabled here too, as an
   * admin disables (every session revoked and marked in the shared cache before commit, one
   * `session.revoked` each), whether or not the user has signed in here.
   */
  private async disable(
    manager: EntityManager,
    project: Project,
    userId: string,
    actor: ImportActor,
  ): Promise<void> {
    await this.users.update(manager, userId, { status: 'disabled' });
    await this.revocation.revokeAll(
      manager,
      userId,
      {
        tenantId: project.tenantId,
        projectId: project.id,
        actorType: actor.userId ? 'admin' : 'system',
        actorId: actor.userId,
        meta: actor.meta,
      },
      'user_disabled',
    );
  }
}

/** `user.created` / `user.updated` of an imported user (`emit_events`), as provisioning writes them, marked `source: import`. */
function userEvent(project: Project, userId: string, email: string) {
  return {
    tenantId: project.tenantId,
    projectId: project.id,
    actorType: 'system' as const,
    actorId: null,
    resourceType: 'user',
    resourceId: userId,
    data: { user: { id: userId, email, project_id: project.id }, source: 'import' },
  };
}
