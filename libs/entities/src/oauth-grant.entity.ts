import { Column, Entity } from 'typeorm';
import { UserScoped } from './scoped-entity';

/**
 * What a user granted a client through the OpenID Connect provider, tied to the Gatehouse session
 * that completed the sign-in: every code, access token and refresh token of the grant names it,
 * and none of them is honoured once the grant is revoked, the session ends or the user is
 * disabled. `grant_id` (the provider's id) is UNIQUE in the database.
 */
@Entity('oauth_grants')
export class OAuthGrant extends UserScoped {
  @Column('text')
  grantId: string;

  @Column('text')
  clientId: string;

  /** The Gatehouse session that completed the interaction (null once that session row is gone). */
  @Column('uuid', { nullable: true })
  sessionId: string | null;

  @Column('jsonb', { default: [] })
  scopes: string[];

  /** The organization the last authorization request named (`organization=`); its tokens' `org` while a member. */
  @Column('uuid', { nullable: true })
  organizationId: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
