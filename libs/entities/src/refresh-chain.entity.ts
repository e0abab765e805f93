import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A session's refresh-token chain, one row per session, updated in place on every rotation (see
 * migration RefreshChains): the current token and the one it replaced.
 */
@Entity('refresh_chains')
export class RefreshChain {
  @PrimaryColumn('uuid')
  sessionId: string;

  /** The current token's generation (0 for the token issued with the session). */
  @Column('integer')
  generation: number;

  /** SHA-256 (hex) of the current token. */
  @Column('text')
  tokenHash: string;

  /** When the current token stops working if not used (7 days idle, capped by the session). */
  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  /** SHA-256 (hex) of the token the current one replaced. */
  @Column('text', { nullable: true })
  previousTokenHash: string | null;

  /** When the previous token was rotated (the start of its 10-s grace). */
  @Column({ type: 'timestamptz', nullable: true })
  rotatedAt: Date | null;

  /** The current token, sealed with AES-GCM, handed out again to a concurrent refresh of the previous one. */
  @Column('text', { nullable: true })
  successorTokenEncrypted: string | null;
}
