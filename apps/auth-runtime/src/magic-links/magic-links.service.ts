import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { sha256Hex } from '@gatehouse/crypto';
import type { User } from '@gatehouse/entities';
import type { RequestMeta, ResolvedProject } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import { MailQueue } from '@gatehouse/queue';
import { AccountClaimsService } from '../claims/account-claims.service';
import { SignInCompletionService, type SignInOutcome } from '../sign-in/sign-in-completion.service';
import { BackgroundTasks } from '../common/background-tasks';
import { defaultApplicationRedirect, magicLink, projectMail } from '../common/mail-links';
import { matchRedirectUrl } from '../common/redirect-urls';
import {
  mailedToCurrentAddress,
  OneTimeTokensRepository,
  UsersRepository,
} from '@gatehouse/identity';
import { isTokenShape } from '../one-time-tokens/token.dto';

export const MAGIC_LINK_TTL_MS = 15 * 60_000;

export type MagicLinkResult =
  | { ok: true; redirectUrl: string; outcome: SignInOutcome }
  | { ok: false; redirectUrl: string | null; error: string };

/**
 * Magic-link sign-in (docs/api-contract.md §5): `send` answers 202 for any email before looking it up; the
 * link works once for 15 minutes and lands on the redirect URL chosen at send time.
 */
@Injectable()
export class MagicLinksService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly tokens: OneTimeTokensRepository,
    private readonly completion: SignInCompletionService,
    private readonly claims: AccountClaimsService,
    private readonly mail: MailQueue,
    private readonly background: BackgroundTasks,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The registered redirect URL matching `redirectUrl` (400 validation-error when none does). */
  resolveRedirect(project: ResolvedProject, redirectUrl: string | undefined): string | null {
    if (redirectUrl === undefined) return null;
    const target = matchRedirectUrl(project, redirectUrl, this.config.http.publicAuthUrl);
    if (!target)
      throw ProblemError.validation({
        redirect_url: ["must be one of the project's registered redirect URLs"],
      });
    return target;
  }

  /** Mails the link in the background, so known and unknown emails answer alike. */
  send(project: ResolvedProject, email: string, target: string | null): void {
    this.background.run('magic-link-send', async () => {
      const user = await this.users.findByEmail(project.id, email);
      if (!user || user.status !== 'active') return;
      const token = await this.tokens.issue(
        this.dataSource.manager,
        user,
        'magic-link',
        new Date(this.clock.nowMs() + MAGIC_LINK_TTL_MS),
        {
          email: user.email,
          ...(target ? { redirect_url: target } : {}),
        },
      );
      await this.mail.send(
        projectMail(project, user.email, 'magic-link', {
          link: magicLink(this.config.http.publicAuthUrl, project, token),
          expires_in_minutes: '15',
        }),
      );
    });
  }

  async verify(
    project: ResolvedProject,
    token: string,
    meta: RequestMeta,
  ): Promise<MagicLinkResult> {
    const fallback = defaultApplicationRedirect(project);
    if (!isTokenShape(token)) return { ok: false, redirectUrl: fallback, error: 'invalid_token' };
    const hash = sha256Hex(token);
    let user: User | null = null;
    const used = await this.dataSource.transaction(async (manager) => {
      const t = await this.tokens.consume(
        manager,
        hash,
        'magic-link',
        project.id,
        this.clock.now(),
      );
      if (!t?.userId) return null;
      user = await this.users.findById(project.id, t.userId, manager);
      if (user && !mailedToCurrentAddress(t, user)) user = null;
      // The link proves the address: an account nobody had verified loses what was set up on it.
      if (user?.status === 'active')
        await this.claims.claimIfUnverified(manager, project, user, { method: 'magic_link' }, meta);
      return t;
    });
    if (!used) {
      const known = await this.tokens.findAny(hash);
      const stored =
        known && known.projectId === project.id && typeof known.payload.redirect_url === 'string'
          ? known.payload.redirect_url
          : null;
      return { ok: false, redirectUrl: stored ?? fallback, error: 'invalid_token' };
    }
    const target =
      typeof used.payload.redirect_url === 'string' ? used.payload.redirect_url : fallback;
    const signedIn = user as User | null;
    if (!signedIn || signedIn.status !== 'active' || !target)
      return { ok: false, redirectUrl: target, error: 'invalid_token' };
    const outcome = await this.completion.complete(project, signedIn, meta, 'magic_link');
    return { ok: true, redirectUrl: target, outcome };
  }
}
