import { QueryFailedError } from 'typeorm';
import {
  decideOnLineError,
  decideOnMatches,
  LineConflict,
  planUpdate,
  type ImportedUserState,
} from './conflict-policy';
import type { ImportLineDto } from './import-line.dto';
import type { ParsedLine } from './line-parser';

const line = (dto: Partial<ImportLineDto> = {}, hash: ParsedLine['hash'] = null): ParsedLine => {
  const full: ImportLineDto = { email: 'ada@example.com', ...dto };
  return {
    dto: full,
    email: full.email,
    username: full.username ? full.username.toLowerCase() : null,
    hash,
    weak: false,
  };
};
const user = (state: Partial<ImportedUserState> = {}): ImportedUserState => ({
  email: 'ada@example.com',
  email_verified: true,
  username: 'ada',
  status: 'active',
  owned: false,
  ...state,
});
const ids = { userId: 'u1', actorUserId: 'admin' };
const uniqueError = (constraint: string) =>
  new QueryFailedError(
    'INSERT …',
    [],
    Object.assign(new Error('duplicate key'), { code: '23505', constraint }),
  );

describe('conflict policy: the users a line matched', () => {
  it('creates when the email and the external id match no one, whatever on_conflict says', () => {
    for (const mode of ['skip', 'update', 'conflict'] as const)
      expect(decideOnMatches([], mode)).toEqual({ kind: 'create' });
  });

  it('skips, updates or reports one matched user as on_conflict says', () => {
    expect(decideOnMatches([{ id: 'u1' }], 'skip')).toEqual({ kind: 'skip' });
    expect(decideOnMatches([{ id: 'u1' }], 'update')).toEqual({ kind: 'update', userId: 'u1' });
    expect(decideOnMatches([{ id: 'u1' }], 'conflict')).toEqual({
      kind: 'conflict',
      detail: 'A user with this email or external id exists.',
    });
  });

  it('reports a line whose email and external id name two different users as a conflict in every mode, skip and update too', () => {
    for (const mode of ['skip', 'update', 'conflict'] as const) {
      expect(decideOnMatches([{ id: 'u1' }, { id: 'u2' }], mode)).toEqual({
        kind: 'conflict',
        detail: 'The email and the external id name two different users.',
      });
    }
  });
});

describe('conflict policy: an update of the matched user', () => {
  it('writes the whole account of a user who never signed in here, and keeps nothing', () => {
    expect(
      planUpdate(
        line(
          { email: 'new@example.com', totp_secret: 'JBSWY3DPEHPK3PXP' },
          { scheme: 'bcrypt', hash: '$2b$…' },
        ),
        user(),
        ids,
      ),
    ).toEqual({ kind: 'update', account: true, credentialsKept: false, disable: false });
  });

  it('updates only the profile of a user who has made the account theirs, and counts the line as credentials_kept when it would have changed the account', () => {
    const owned = user({ owned: true });
    const changes: [string, ParsedLine][] = [
      ['a password hash', line({}, { scheme: 'bcrypt', hash: '$2b$…' })],
      ['a TOTP secret', line({ totp_secret: 'JBSWY3DPEHPK3PXP' })],
      ['an SMS phone', line({ phone_number: '+14155550100' })],
      ['an identity', line({ identities: [{ provider: 'google', subject: '1' }] })],
      ['another email', line({ email: 'old@example.com' })],
      ['another username', line({ username: 'Lovelace' })],
      ['another verification', line({ email_verified: false })],
    ];
    for (const [what, l] of changes)
      expect([what, planUpdate(l, owned, ids)]).toEqual([
        what,
        { kind: 'update', account: false, credentialsKept: true, disable: false },
      ]);
  });

  it('does not count an owned user as credentials_kept when the line would change nothing of the account (same email in another case, same username, no credentials)', () => {
    const same = line({
      email: 'ADA@example.com',
      username: 'ADA',
      email_verified: true,
      metadata: { plan: 'pro' },
    });
    expect(planUpdate(same, user({ owned: true }), ids)).toEqual({
      kind: 'update',
      account: false,
      credentialsKept: false,
      disable: false,
    });
    expect(
      planUpdate(line(), user({ owned: true, username: 'other', email_verified: false }), ids),
    ).toEqual({ kind: 'update', account: false, credentialsKept: false, disable: false });
  });

  it('disables an active user on a disabled line, owned or not, and never re-enables a disabled one', () => {
    expect(planUpdate(line({ status: 'disabled' }), user(), ids)).toMatchObject({
      kind: 'update',
      disable: true,
    });
    expect(planUpdate(line({ status: 'disabled' }), user({ owned: true }), ids)).toMatchObject({
      kind: 'update',
      account: false,
      disable: true,
    });
    expect(
      planUpdate(line({ status: 'disabled' }), user({ status: 'disabled' }), ids),
    ).toMatchObject({ kind: 'update', disable: false });
    expect(planUpdate(line({ status: 'active' }), user({ status: 'disabled' }), ids)).toMatchObject(
      { kind: 'update', disable: false },
    );
    expect(planUpdate(line(), user({ status: 'disabled' }), ids)).toMatchObject({
      kind: 'update',
      disable: false,
    });
  });

  it('refuses a line that would disable the importing admin, and lets the CLI (no admin) disable anyone', () => {
    expect(
      planUpdate(line({ status: 'disabled' }), user(), { userId: 'admin', actorUserId: 'admin' }),
    ).toEqual({ kind: 'conflict', detail: 'You cannot disable your own account.' });
    expect(
      planUpdate(line({ status: 'active' }), user(), { userId: 'admin', actorUserId: 'admin' }),
    ).toMatchObject({ kind: 'update' });
    expect(
      planUpdate(line({ status: 'disabled' }), user(), { userId: 'u1', actorUserId: null }),
    ).toMatchObject({ kind: 'update', disable: true });
  });
});

describe('conflict policy: a line the database refused', () => {
  it('tries a line again once when a user with its email or external id was created meanwhile, then reports it', () => {
    for (const constraint of ['users_project_email_uq', 'users_project_external_id']) {
      expect(decideOnLineError(uniqueError(constraint), 1)).toEqual({ kind: 'retry' });
      expect(decideOnLineError(uniqueError(constraint), 2)).toEqual({
        kind: 'conflict',
        detail: 'The username, email or a social identity belongs to another user of the project.',
      });
    }
  });

  it('reports any other unique violation (a username, a social identity) as a conflict at once', () => {
    expect(decideOnLineError(uniqueError('users_project_username_uq'), 1)).toEqual({
      kind: 'conflict',
      detail: 'The username, email or a social identity belongs to another user of the project.',
    });
  });

  it("reports a LineConflict with its own words, and lets every other error through (not the line's fault)", () => {
    expect(
      decideOnLineError(
        new LineConflict('The google identity 1 belongs to another user of the project.'),
        1,
      ),
    ).toEqual({
      kind: 'conflict',
      detail: 'The google identity 1 belongs to another user of the project.',
    });
    expect(decideOnLineError(new Error('connection reset'), 1)).toEqual({ kind: 'throw' });
    expect(
      decideOnLineError(
        new QueryFailedError('SELECT', [], Object.assign(new Error('deadlock'), { code: '40P01' })),
        1,
      ),
    ).toEqual({ kind: 'throw' });
  });
});
