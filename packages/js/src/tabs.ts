/** What one tab tells the others about the session (same project, same origin). */
export type TabMessage = { type: 'token'; accessToken: string } | { type: 'signed-out' };

/** Web Locks: one holder of a name at a time across the origin's tabs. */
export interface TabLocks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** A broadcast channel between the origin's tabs. */
export interface TabChannel {
  post(message: TabMessage): void;
  subscribe(listener: (message: TabMessage) => void): void;
  close(): void;
}

export interface Tabs {
  locks: TabLocks | null;
  channel: TabChannel | null;
}

/**
 * The browser's own coordination between tabs: `navigator.locks` (one refresh at a time across
 * tabs) and a `BroadcastChannel` (the new token for the others). Absent pieces are null (older
 * browsers, Node): the client then coordinates within its own instance only.
 */
export function browserTabs(projectKey: string): Tabs {
  const nav =
    typeof navigator === 'undefined'
      ? undefined
      : (navigator as Navigator & {
          locks?: { request: (name: string, cb: () => Promise<unknown>) => Promise<unknown> };
        });
  const locks: TabLocks | null = nav?.locks
    ? { request: (name, cb) => nav.locks.request(name, cb) as Promise<never> }
    : null;
  let channel: TabChannel | null = null;
  if (typeof BroadcastChannel !== 'undefined') {
    const bc = new BroadcastChannel(`gatehouse:${projectKey}`);
    // Where a channel can hold a process open (Node, Deno), it must not.
    (bc as { unref?: () => void }).unref?.();
    channel = {
      post: (message) => bc.postMessage(message),
      subscribe: (listener) =>
        bc.addEventListener('message', (event: MessageEvent<TabMessage>) => listener(event.data)),
      close: () => bc.close(),
    };
  }
  return { locks, channel };
}
