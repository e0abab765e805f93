import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sha256Hex } from '@gatehouse/crypto';
import {
  OneTimeTokensRepository,
  UsersRepository,
  type RequestMeta,
  type ResolvedProject,
} from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { defaultApplicationRedirect } from '../common/mail-links';
import { isTokenShape } from '../one-time-tokens/token.dto';
import { SessionsService, type IssuedSession } from '../sessions/sessions.service';

export type ImpersonationResult =
  | { ok: true; redirectUrl: string; session: IssuedSession }
  | { ok: false; redirectUrl: string | null };

/**
 * Opens an admin's impersonation link (docs/api-contract.md §13; the control plane issues it): the one-time
 * token (60 s, single use even under concurrent requests: `consume` is one conditional UPDATE) of
 * purpose `impersonation` starts a session of the user whose tokens carry `act: {sub: <admin>}`,
 * no second factor asked (the admin proved theirs recently to get the link). The link works only
 * while the user is active and its admin is still an active admin of the same tenant. Anything
 * else: no session, and the redirect carries `?error=invalid_token`, as a magic link's does.
 */
@Injectable()
export class ImpersonationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tokens: OneTimeTokensRepository,
    private readonly users: UsersRepository,
    private readonly sessions: SessionsService,
    private readonly clock: Clock,
  ) {}

  async open(
    project: ResolvedProject,
    token: string,
    meta: RequestMeta,
  ): Promise<ImpersonationResult> {
    const fallback = defaultApplicationRedirect(project);
    if (!isTokenShape(token)) return { ok: false, redirectUrl: fallback };
    const hash = sha256Hex(token);
    const opened = await this.dataSource.transaction(async (manager) => {
      const used = await this.tokens.consume(
        manager,
        hash,
        'impersonation',
        project.id,
        this.clock.now(),
      );
      if (!used?.userId) return null;
      const target =
        typeof used.payload.redirect_url === 'string' ? used.payload.redirect_url : fallback;
      const adminId = typeof used.payload.admin_id === 'string' ? used.payload.admin_id : null;
      const adminProjectId =
        typeof used.payload.admin_project_id === 'string' ? used.payload.admin_project_id : null;
      const [user, admin] = await Promise.all([
        this.users.findById(project.id, used.userId, manager),
        adminId && adminProjectId ? this.users.findById(adminProjectId, adminId, manager) : null,
      ]);
      const adminValid =
        admin && admin.isAdmin && admin.status === 'active' && admin.tenantId === project.tenantId;
      if (!user || user.status !== 'active' || user.isAdmin || !adminValid || !target)
        return { target, session: null };
      const session = await this.sessions.start(manager, project, user, meta, 'impersonation', {
        impersonatorId: admin.id,
      });
      return { target, session };
    });
    if (!opened) {
      const known = await this.tokens.findAny(hash);
      const stored =
        known &&
        known.projectId === project.id &&
        known.purpose === 'impersonation' &&
        typeof known.payload.redirect_url === 'string'
          ? known.payload.redirect_url
          : null;
      return { ok: false, redirectUrl: stored ?? fallback };
    }
    if (!opened.session || !opened.target) return { ok: false, redirectUrl: opened.target };
    return { ok: true, redirectUrl: opened.target, session: opened.session };
  }
}
