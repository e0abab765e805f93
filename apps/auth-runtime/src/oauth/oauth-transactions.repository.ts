import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OAuthTransaction } from '@gatehouse/entities';

interface RawTransaction {
  id: string;
  tenant_id: string;
  project_id: string;
  provider: string;
  state_hash: string;
  browser_binding_hash: string;
  code_verifier_encrypted: string;
  nonce: string | null;
  redirect_url: string;
  expires_at: Date;
  consumed_at: Date | null;
  created_at: Date;
}

function toTransaction(r: RawTransaction): OAuthTransaction {
  return Object.assign(new OAuthTransaction(), {
    id: r.id,
    tenantId: r.tenant_id,
    projectId: r.project_id,
    provider: r.provider,
    stateHash: r.state_hash,
    browserBindingHash: r.browser_binding_hash,
    codeVerifierEncrypted: r.code_verifier_encrypted,
    nonce: r.nonce,
    redirectUrl: r.redirect_url,
    expiresAt: new Date(r.expires_at),
    consumedAt: r.consumed_at ? new Date(r.consumed_at) : null,
    createdAt: new Date(r.created_at),
  });
}

/**
 * The only code that queries `oauth_transactions`. A transaction is found by the SHA-256 of its
 * `state`; `consume` is one conditional UPDATE (unused, unexpired, same browser binding), so of
 * any number of concurrent callbacks with the same state exactly one gets it.
 */
@Injectable()
export class OAuthTransactionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(
    t: Pick<
      OAuthTransaction,
      | 'tenantId'
      | 'projectId'
      | 'provider'
      | 'stateHash'
      | 'browserBindingHash'
      | 'codeVerifierEncrypted'
      | 'nonce'
      | 'redirectUrl'
      | 'expiresAt'
    >,
  ): Promise<void> {
    await this.dataSource.getRepository(OAuthTransaction).insert(t);
  }

  findByStateHash(stateHash: string): Promise<OAuthTransaction | null> {
    return this.dataSource.getRepository(OAuthTransaction).findOne({ where: { stateHash } });
  }

  async consume(
    stateHash: string,
    bindingHash: string,
    now: Date,
  ): Promise<OAuthTransaction | null> {
    const r = await this.dataSource
      .createQueryBuilder()
      .update(OAuthTransaction)
      .set({ consumedAt: now })
      .where(
        'state_hash = :stateHash AND browser_binding_hash = :bindingHash AND consumed_at IS NULL AND expires_at > :now',
        { stateHash, bindingHash, now },
      )
      .returning('*')
      .execute();
    const raw = (r.raw as RawTransaction[])[0];
    return raw ? toTransaction(raw) : null;
  }

  /** Drops transactions that expired before `before` (used or not); returns how many. */
  async purgeExpired(before: Date): Promise<number> {
    const r = await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(OAuthTransaction)
      .where('expires_at < :before', { before })
      .execute();
    return r.affected ?? 0;
  }
}
