import type { CallbackGuard } from '../provider-http';

type StoreCallback = (err: Error | null, state?: string) => void;
type VerifyCallback = (
  err: Error | null,
  ok: string | false,
  info?: Record<string, unknown>,
) => void;

export interface TransactionStateHandlers {
  /** Authorize: persists a new transaction holding this PKCE verifier and returns its `state`. */
  persist?: (codeVerifier: string) => Promise<string>;
  /** Callback: the verifier of the transaction the service has already verified and consumed. */
  codeVerifier?: string;
}

/**
 * passport-oauth2's PKCE state-store interface (`store` with 5 arguments, `verify` with 4; the
 * strategy picks the call by arity) backed by our `oauth_transactions` table instead of an
 * express session. The state is checked and consumed by OAuthService before the strategy runs,
 * because the provider to use is read from the stored transaction, never from the request.
 */
export class TransactionStateStore {
  constructor(
    private readonly guard: CallbackGuard,
    private readonly handlers: TransactionStateHandlers,
  ) {}

  store(
    _req: unknown,
    codeVerifier: string,
    _state: unknown,
    _meta: unknown,
    callback: StoreCallback,
  ): void {
    const persist = this.handlers.persist;
    if (!persist) {
      callback(new Error('no transaction to persist'));
      return;
    }
    persist(codeVerifier).then(
      (state) => this.guard.run(() => callback(null, state)),
      (err: unknown) =>
        this.guard.run(() => callback(err instanceof Error ? err : new Error(String(err)))),
    );
  }

  verify(_req: unknown, _state: unknown, _meta: unknown, callback: VerifyCallback): void {
    const verifier = this.handlers.codeVerifier;
    if (verifier) callback(null, verifier, {});
    else callback(null, false, { message: 'no verified transaction' });
  }
}
