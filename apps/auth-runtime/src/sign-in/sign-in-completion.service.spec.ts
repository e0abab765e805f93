import type { User } from '@gatehouse/entities';
import {
  MfaFactorsRepository,
  OneTimeTokensRepository,
  type ResolvedProject,
} from '@gatehouse/identity';
import { newTestService, TEST_SERVICE_NOW } from '@gatehouse/testing';
import { SessionsService, type IssuedSession } from '../sessions/sessions.service';
import { MFA_TOKEN_TTL_MS, SignInCompletionService } from './sign-in-completion.service';

/** Where every way in ends: a challenge for a user with a code factor, else a session. */
describe('SignInCompletionService.complete decides between a session and an MFA challenge', () => {
  const project = { id: 'project-1' } as ResolvedProject;
  const user = { id: 'user-1', securityStamp: 4 } as User;
  const meta = { ip: '192.0.2.1', userAgent: 'test' };
  const session = { sessionId: 'session-1' } as unknown as IssuedSession;

  function service(factors: string[]) {
    const t = newTestService(SignInCompletionService);
    t.mock(MfaFactorsRepository).availableFactors.mockResolvedValue(factors);
    t.mock(OneTimeTokensRepository).issue.mockResolvedValue('mfa-token');
    t.mock(SessionsService).start.mockResolvedValue(session);
    return t;
  }

  it.each([[['totp']], [['sms']], [['passkey', 'totp']]])(
    'challenges a password sign-in of a user with %j, with a 5-minute token bound to the method and stamp, and starts no session',
    async (factors) => {
      const { sut, mock, manager } = service(factors);
      expect(await sut.complete(project, user, meta, 'password')).toEqual({
        kind: 'mfa',
        user,
        challenge: { mfa_required: true, mfa_token: 'mfa-token', available_factors: factors },
      });
      expect(mock(OneTimeTokensRepository).issue.mock.calls).toEqual([
        [
          manager,
          user,
          'mfa',
          new Date(TEST_SERVICE_NOW.getTime() + MFA_TOKEN_TTL_MS),
          { method: 'password', stamp: 4 },
        ],
      ]);
      expect(mock(SessionsService).start).not.toHaveBeenCalled();
    },
  );

  it.each([[[]], [['passkey']], [['backup_code']], [['passkey', 'backup_code']]])(
    'starts a session, in a transaction, when the enabled factors %j ask no code',
    async (factors) => {
      const { sut, mock, manager } = service(factors);
      expect(await sut.complete(project, user, meta, 'magic_link')).toEqual({
        kind: 'session',
        user,
        session,
      });
      expect(mock(SessionsService).start.mock.calls).toEqual([
        [manager, project, user, meta, 'magic_link'],
      ]);
      expect(mock(OneTimeTokensRepository).issue).not.toHaveBeenCalled();
    },
  );

  it.each(['passkey', 'mfa'] as const)(
    'starts a session after %s without looking at the factors (it satisfies MFA itself)',
    async (method) => {
      const { sut, mock } = service(['totp']);
      expect(await sut.complete(project, user, meta, method)).toEqual({
        kind: 'session',
        user,
        session,
      });
      expect(mock(MfaFactorsRepository).availableFactors).not.toHaveBeenCalled();
      expect(mock(OneTimeTokensRepository).issue).not.toHaveBeenCalled();
    },
  );
});
