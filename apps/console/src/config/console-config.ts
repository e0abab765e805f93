/** What the control plane serves at /console/config.json. */
export interface ConsoleConfig {
  auth_url: string;
  /** The first tenant's console project; admins of another tenant enter theirs on the sign-in page. */
  project_key: string | null;
  console_url: string;
}

const PROJECT_KEY = 'gatehouse.console.project_key';

export async function loadConfig(): Promise<ConsoleConfig> {
  const res = await fetch(`${import.meta.env.BASE_URL}config.json`, {
    headers: { Accept: 'application/json' },
  });
  if (!res.ok)
    throw new Error(`The console's configuration could not be loaded (HTTP ${res.status}).`);
  const config = (await res.json()) as ConsoleConfig;
  // A publishable key is public; it is kept for this tab only so a reload signs in to the same tenant.
  const chosen = sessionStorage.getItem(PROJECT_KEY);
  return chosen ? { ...config, project_key: chosen } : config;
}

export function rememberProjectKey(key: string | null): void {
  if (key) sessionStorage.setItem(PROJECT_KEY, key);
  else sessionStorage.removeItem(PROJECT_KEY);
}
