import { uniqueViolation } from '@gatehouse/entities';
import type { ParsedLine } from './line-parser';

/**
 * The conflict policy of an import (docs/api-contract.md §12): what a line does about the users it finds, how
 * an update treats a user who has made the account theirs here, and what a line the database
 * refuses becomes. Decisions only: the line writer and the batch runner carry them out.
 */

/** `on_conflict`: what a line whose email or external id names an existing user does. */
export type OnConflict = 'skip' | 'update' | 'conflict';

export type MatchDecision =
  | { kind: 'create' }
  | { kind: 'skip' }
  | { kind: 'conflict'; detail: string }
  | { kind: 'update'; userId: string };

/** What a line does, given the users its email and its external id found. */
export function decideOnMatches(
  matches: readonly { id: string }[],
  onConflict: OnConflict,
): MatchDecision {
  if (matches.length > 1)
    return { kind: 'conflict', detail: 'The email and the external id name two different users.' };
  if (matches.length === 0) return { kind: 'create' };
  if (onConflict === 'skip') return { kind: 'skip' };
  if (onConflict === 'conflict')
    return { kind: 'conflict', detail: 'A user with this email or external id exists.' };
  return { kind: 'update', userId: matches[0].id };
}

/** The user an update line matched, as it is before the line (locked for the update). */
export interface ImportedUserState {
  email: string;
  email_verified: boolean;
  username: string | null;
  status: 'active' | 'disabled';
  /** The user has signed in here or changed their credentials here (a password change or reset, an account claim). */
  owned: boolean;
}

export type UpdatePlan =
  | {
      kind: 'update';
      /** The line's email, username and credentials are written; otherwise only its metadata and external id. */
      account: boolean;
      /** The line would have changed an owned user's sign-in identifiers or credentials, and does not (`credentials_kept`). */
      credentialsKept: boolean;
      /** The line disables the user (every session revoked). */
      disable: boolean;
    }
  | { kind: 'conflict'; detail: string };

/**
 * How an update line applies to the user it matched. An update of a user who has signed in here or
 * changed their credentials here changes their metadata and external id only: the line's email,
 * username, password hash, TOTP secret, phone and identities would otherwise bring back what the
 * user replaced or removed (an old address after an email change, an old export's password after a
 * reset, an identity an account claim cut off). A `disabled` line disables the user whether or not
 * they signed in here; a line never re-enables (enabling stays an admin's act), and an admin cannot
 * disable themselves (as with PATCH).
 */
export function planUpdate(
  line: ParsedLine,
  current: ImportedUserState,
  ids: { userId: string; actorUserId: string | null },
): UpdatePlan {
  const disable = line.dto.status === 'disabled' && current.status !== 'disabled';
  if (disable && ids.userId === ids.actorUserId)
    return { kind: 'conflict', detail: 'You cannot disable your own account.' };
  return {
    kind: 'update',
    account: !current.owned,
    credentialsKept: current.owned && wouldChangeAccount(line, current),
    disable,
  };
}

/** Whether an update line would change an owned user's sign-in identifiers or credentials (what `credentials_kept` counts). */
function wouldChangeAccount(line: ParsedLine, current: ImportedUserState): boolean {
  const { dto } = line;
  return (
    line.hash !== null ||
    !!dto.totp_secret ||
    !!dto.phone_number ||
    !!dto.identities?.length ||
    line.email.toLowerCase() !== current.email.toLowerCase() ||
    (dto.username !== undefined && line.username !== current.username) ||
    (dto.email_verified !== undefined && dto.email_verified !== current.email_verified)
  );
}

/** A line that cannot be written as it is (reported as a conflict); thrown inside the line's savepoint, so nothing of it stays. */
export class LineConflict extends Error {}

export type LineErrorDecision =
  { kind: 'retry' } | { kind: 'conflict'; detail: string } | { kind: 'throw' };

/**
 * A line whose writing failed (its savepoint rolled back), at its `attempt`-th try. A user another
 * import created meanwhile (the line waited for its commit on the unique index) is there on a
 * second try: the line is then skipped, updated or a conflict as any other. Any other unique
 * violation is a conflict with another user; anything else is not the line's fault.
 */
export function decideOnLineError(err: unknown, attempt: number): LineErrorDecision {
  const constraint = uniqueViolation(err);
  if (
    attempt === 1 &&
    (constraint === 'users_project_email_uq' || constraint === 'users_project_external_id')
  )
    return { kind: 'retry' };
  if (err instanceof LineConflict) return { kind: 'conflict', detail: err.message };
  if (constraint !== null)
    return {
      kind: 'conflict',
      detail: 'The username, email or a social identity belongs to another user of the project.',
    };
  return { kind: 'throw' };
}
