import type { User } from '@gatehouse/entities';
import type { IssuedSession } from '../sessions/sessions.service';

/** The spec's sign-in body `{user: {id, email}, session: {id, access_token}}`, for every way in. */
export function signedInBody(user: Pick<User, 'id' | 'email'>, session: Pick<IssuedSession, 'sessionId' | 'accessToken'>) {
  return { user: { id: user.id, email: user.email }, session: { id: session.sessionId, access_token: session.accessToken } };
}
