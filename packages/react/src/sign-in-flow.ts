import { GatehouseError, type GatehouseClient, type MfaFactor } from '@gatehouse/js';

export type SignInStep = 'idle' | 'submitting' | 'mfa-required' | 'signed-in' | 'error';

/** What a sign-in form shows: where it is, the last failure, and the second factors it may ask for. */
export interface SignInSnapshot {
  step: SignInStep;
  /** The last failure (wrong password, wrong code, locked, …), cleared by the next attempt. */
  error: GatehouseError | null;
  /** During `mfa-required`: the user's factors (`totp`, `sms`, `backup_code`). */
  factors: string[];
}

const IDLE: SignInSnapshot = { step: 'idle', error: null, factors: [] };

/**
 * The sign-in state machine behind `useSignIn`, kept out of React so that it is one external store
 * (subscribe + snapshot) and testable on its own: password → (MFA challenge →) signed in; a wrong
 * code keeps the challenge so the user can try again; a passkey can answer the challenge too.
 */
export class SignInFlow {
  private snapshot: SignInSnapshot = IDLE;
  private mfaToken: string | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly client: GatehouseClient) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): SignInSnapshot => this.snapshot;

  readonly signIn = (identifier: string, password: string): Promise<void> =>
    this.run('error', async () => {
      this.mfaToken = null; // a new password attempt drops an earlier challenge
      const result = await this.client.signIn({ identifier, password });
      if (result.status === 'mfa-required') {
        this.mfaToken = result.mfaToken;
        this.set({ step: 'mfa-required', error: null, factors: result.factors });
      } else this.done();
    });

  readonly verifyMfa = (factor: MfaFactor, code: string): Promise<void> =>
    // A wrong code keeps the challenge (five wrong codes end it: `invalid-token`, then `reset()`).
    this.run('mfa-required', async () => {
      if (!this.mfaToken)
        throw new GatehouseError(400, {
          title: 'No MFA challenge',
          detail: 'Sign in with a password first.',
        });
      await this.client.verifyMfa({ mfaToken: this.mfaToken, factor, code });
      this.done();
    });

  /** During the challenge: sends the SMS code (sign-in never sends one by itself). */
  readonly sendMfaSms = (): Promise<void> =>
    this.run('mfa-required', async () => {
      if (!this.mfaToken)
        throw new GatehouseError(400, {
          title: 'No MFA challenge',
          detail: 'Sign in with a password first.',
        });
      await this.client.sendMfaSms(this.mfaToken);
      this.set({ ...this.snapshot, step: 'mfa-required' });
    });

  /** Passkey sign-in, from the start or in answer to the challenge (a passkey satisfies MFA). */
  readonly signInWithPasskey = (email?: string): Promise<void> =>
    this.run(this.mfaToken ? 'mfa-required' : 'error', async () => {
      await this.client.signInWithPasskey(email ? { email } : {});
      this.done();
    });

  /** Back to `idle` ("use another account"). */
  readonly reset = (): void => {
    this.mfaToken = null;
    this.set(IDLE);
  };

  private async run(failedStep: SignInStep, attempt: () => Promise<void>): Promise<void> {
    this.set({ ...this.snapshot, step: 'submitting', error: null });
    try {
      await attempt();
    } catch (err) {
      const error = err instanceof GatehouseError ? err : GatehouseError.network(err);
      this.set({
        step: failedStep,
        error,
        factors: failedStep === 'mfa-required' ? this.snapshot.factors : [],
      });
    }
  }

  private done(): void {
    this.mfaToken = null;
    this.set({ step: 'signed-in', error: null, factors: [] });
  }

  private set(snapshot: SignInSnapshot): void {
    this.snapshot = snapshot;
    for (const listener of this.listeners) listener();
  }
}
