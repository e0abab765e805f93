import type { User } from '@gatehouse/entities';
import type { UsersRepository } from '@gatehouse/identity';
import { ProblemError } from '@gatehouse/problem-details';

/**
 * The user a session belongs to, still active; 401 `unauthenticated` when they were deleted or
 * disabled since the access token was issued (the token alone proves neither).
 */
export async function activeUser(
  users: UsersRepository,
  projectId: string,
  userId: string,
): Promise<User> {
  const user = await users.findById(projectId, userId);
  if (!user || user.status !== 'active')
    throw new ProblemError('unauthenticated', { detail: 'A valid session is required.' });
  return user;
}
