import { useCallback, useId, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import {
  GatehouseError,
  hasPermission,
  type ActiveOrganization,
  type AuthState,
  type CreateOrganizationInput,
  type GatehouseClient,
  type Organization,
  type OrganizationRequirement,
} from '@gatehouse/js';
import { useGatehouse, useSession } from './provider';

export interface OrganizationListSnapshot {
  /** The user's organizations by name; null until the first answer (and while signed out). */
  organizations: Organization[] | null;
  loading: boolean;
  /** The GatehouseError of the last load, or null. */
  error: unknown;
}

const EMPTY: OrganizationListSnapshot = { organizations: null, loading: false, error: null };

/**
 * The signed-in user's organizations (`GET /v1/auth/organizations`), one list per client shared by
 * every `useOrganizationList()` and `<OrganizationSwitcher>` of the page, so that an organization
 * created in one place shows in the others. Loaded when the first component subscribes while
 * signed in, again when another user or session signs in, and when the active organization's role
 * or permissions (the token's `org` claim) no longer match the list; emptied on sign-out.
 */
export class OrganizationListStore {
  private snapshot: OrganizationListSnapshot = EMPTY;
  private readonly listeners = new Set<() => void>();
  private unfollow: (() => void) | null = null;
  private loads = 0;
  private loadedFor: string | null = null;

  constructor(private readonly client: GatehouseClient) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (!this.unfollow) {
      this.unfollow = this.client.onChange((state) => this.follow(state));
      this.follow(this.client.getState());
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.unfollow) {
        this.unfollow();
        this.unfollow = null;
      }
    };
  };

  getSnapshot = (): OrganizationListSnapshot => this.snapshot;

  /** Loads the list again; the answer of an older load arriving later is dropped. */
  refresh = async (): Promise<void> => {
    const load = ++this.loads;
    this.loadedFor = this.sessionKey(this.client.getState());
    this.set({ ...this.snapshot, loading: true, error: null });
    try {
      const organizations = await this.client.listOrganizations();
      if (load === this.loads) this.set({ organizations, loading: false, error: null });
    } catch (error) {
      if (load === this.loads) this.set({ ...this.snapshot, loading: false, error });
    }
  };

  /** Creates an organization (the user becomes its admin) and reloads the list; rejects with the GatehouseError. */
  create = async (input: CreateOrganizationInput): Promise<Organization> => {
    const created = await this.client.createOrganization(input);
    await this.refresh();
    return created;
  };

  private follow(state: AuthState): void {
    if (state.status !== 'signed-in') {
      if (state.status === 'signed-out' && this.snapshot !== EMPTY) {
        this.loads += 1; // an answer still on its way belongs to the previous user
        this.loadedFor = null;
        this.set(EMPTY);
      }
      return;
    }
    if (this.sessionKey(state) !== this.loadedFor || this.stale(state.organization))
      void this.refresh();
  }

  /** The active organization's claim says another role or other permissions than the list (its role changed at Gatehouse). */
  private stale(active: ActiveOrganization | null): boolean {
    if (!active || !this.snapshot.organizations || this.snapshot.loading) return false;
    const listed = this.snapshot.organizations.find((o) => o.id === active.id);
    return (
      !listed ||
      listed.role !== active.role ||
      listed.permissions.join(' ') !== active.permissions.join(' ')
    );
  }

  private sessionKey(state: AuthState): string | null {
    return state.status === 'signed-in' ? `${state.user?.id}:${state.sessionId}` : null;
  }

  private set(snapshot: OrganizationListSnapshot): void {
    this.snapshot = snapshot;
    for (const listener of this.listeners) listener();
  }
}

const stores = new WeakMap<GatehouseClient, OrganizationListStore>();

/** The client's one organization list (what `useOrganizationList()` reads). */
export function organizationListOf(client: GatehouseClient): OrganizationListStore {
  let store = stores.get(client);
  if (!store) {
    store = new OrganizationListStore(client);
    stores.set(client, store);
  }
  return store;
}

export interface UseOrganizationList {
  /** The user's organizations by name (`{id, name, slug, role, permissions}`); empty until loaded. */
  organizations: Organization[];
  /** True until the first answer, and while a reload runs. */
  loading: boolean;
  error: unknown;
  refresh(): Promise<void>;
  /** Creates an organization with the user as its admin (the project must allow it) and reloads the list. */
  create(input: CreateOrganizationInput): Promise<Organization>;
}

/** The signed-in user's organizations, loaded when first used; shared by the page's components. */
export function useOrganizationList(): UseOrganizationList {
  const client = useGatehouse();
  const store = organizationListOf(client);
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const signedIn = useSession().status === 'signed-in';
  return useMemo(
    () => ({
      organizations: snapshot.organizations ?? [],
      loading: snapshot.loading || (signedIn && snapshot.organizations === null && !snapshot.error),
      error: snapshot.error,
      refresh: store.refresh,
      create: store.create,
    }),
    [snapshot, signedIn, store],
  );
}

export interface UseOrganization {
  /** The session's active organization as the access token says it (`{id, slug, role, permissions}`), or null. */
  organization: ActiveOrganization | null;
  /** Whether the active organization grants `{permission}` or is held with `{role}` (false without one). For the UI only: your API checks the token. */
  has(requirement: OrganizationRequirement): boolean;
  /** Makes an organization active (`null`: the personal account); the new token is used at once and kept across refreshes. */
  setActive(organizationId: string | null): Promise<ActiveOrganization | null>;
}

/** The active organization; re-renders when it changes (a switch, in this tab or another, or a role change at the next renewal). */
export function useOrganization(): UseOrganization {
  const client = useGatehouse();
  const organization = useSession().organization;
  return useMemo(
    () => ({
      organization,
      has: (requirement: OrganizationRequirement) => hasPermission(organization, requirement),
      setActive: (id: string | null) => client.setActiveOrganization(id),
    }),
    [client, organization],
  );
}

export interface OrganizationSwitcherProps {
  /** On the wrapper (a `div`); the switcher has no style of its own. */
  className?: string;
  /** The select's label; default "Organization". */
  label?: ReactNode;
  /** The option for no organization; default "Personal account". */
  personalLabel?: string;
  /** No option for the personal account (then, with no active organization, a placeholder asks to choose one). */
  hidePersonal?: boolean;
  /** The select's id (default: a generated one). */
  id?: string;
  /** After a switch succeeded. */
  onSwitch?(organization: ActiveOrganization | null): void;
}

const messageOf = (err: unknown, fallback: string) =>
  err instanceof GatehouseError ? (err.detail ?? err.title) : fallback;

/**
 * A native `<select>` with its `<label>` (keyboard and screen readers work as for any select):
 * "Personal account" and the user's organizations by name, the active one selected; choosing one
 * makes it active. A failure is shown under it (`role="alert"`) and the choice goes back. Renders
 * nothing unless signed in.
 */
export function OrganizationSwitcher({
  className,
  label = 'Organization',
  personalLabel = 'Personal account',
  hidePersonal = false,
  id,
  onSwitch,
}: OrganizationSwitcherProps) {
  const { status } = useSession();
  const { organization, setActive } = useOrganization();
  const list = useOrganizationList();
  const generated = useId();
  const selectId = id ?? `${generated}-organization`;
  const errorId = `${selectId}-error`;
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  const change = useCallback(
    async (value: string) => {
      setPending(value);
      setError(null);
      try {
        const active = await setActive(value === '' ? null : value);
        onSwitch?.(active);
      } catch (err) {
        setError(err);
      } finally {
        setPending(null);
      }
    },
    [setActive, onSwitch],
  );

  if (status !== 'signed-in') return null;
  const value = pending ?? organization?.id ?? '';
  // The active organization before the list has it (still loading): an option all the same, so the select shows it.
  const listed = list.organizations.some((o) => o.id === organization?.id);
  const message = error
    ? messageOf(error, 'The organization could not be switched.')
    : list.error
      ? messageOf(list.error, 'Your organizations could not be loaded.')
      : null;
  return (
    <div className={className} data-gatehouse-organization-switcher="">
      <label htmlFor={selectId}>{label}</label>
      <select
        id={selectId}
        value={value}
        aria-busy={pending !== null || list.loading}
        aria-describedby={message ? errorId : undefined}
        onChange={(e) => void change(e.target.value)}
      >
        {hidePersonal ? (
          value === '' && (
            <option value="" disabled>
              Choose an organization
            </option>
          )
        ) : (
          <option value="">{personalLabel}</option>
        )}
        {organization && !listed && <option value={organization.id}>{organization.slug}</option>}
        {list.organizations.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      {message && (
        <p id={errorId} role="alert">
          {message}
        </p>
      )}
    </div>
  );
}
