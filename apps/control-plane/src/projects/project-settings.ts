import { isDeepStrictEqual } from 'node:util';
import type { ProjectSettings } from '@gatehouse/entities';
import type { ProjectSettingsDto } from './dto/project-settings.dto';

export type SecretField = 'client_secret' | 'private_key';
export type Sealer = (provider: string, field: SecretField, value: string) => string;
/** Seals the lazy-migration secret. */
export type MigrationSealer = (secret: string) => string;

const SECRET_FIELDS: readonly SecretField[] = ['client_secret', 'private_key'];

function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/**
 * `settings.oauth_providers` replaced as a whole (it is one top-level key), except that the
 * write-only secrets of a provider that stays configured are kept when the PATCH omits them
 * (an admin cannot read them back to resend them); `null` clears one. Secrets are sealed.
 */
function mergeProviders(
  previous: Record<string, Record<string, unknown>>,
  given: Record<string, unknown>,
  seal: Sealer,
): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, cfg] of Object.entries(given)) {
    if (cfg === undefined || cfg === null) continue;
    const fields = cfg as Record<string, unknown>;
    const prev = previous[name] ?? {};
    const entry: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(fields)) {
      if (value === undefined || (SECRET_FIELDS as readonly string[]).includes(field)) continue;
      entry[field] = plain(value);
    }
    for (const field of SECRET_FIELDS) {
      const sealedKey = `${field}_encrypted`;
      const value = fields[field];
      if (typeof value === 'string') entry[sealedKey] = seal(name, field, value);
      else if (value === undefined && typeof prev[sealedKey] === 'string')
        entry[sealedKey] = prev[sealedKey];
    }
    out[name] = entry;
  }
  return out;
}

/**
 * Applies a settings PATCH (docs/api-contract.md §10): merges at the top level of `settings` — given keys
 * replace theirs, keys set to null are removed, other keys stay. Returns the new settings and
 * the names of the keys whose value it changed.
 */
export function mergeSettings(
  current: ProjectSettings,
  patch: ProjectSettingsDto,
  seal: Sealer,
  sealMigration: MigrationSealer = (s) => s,
): { settings: ProjectSettings; changed: string[] } {
  const settings: ProjectSettings = { ...current };
  const changed: string[] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) {
      delete settings[key];
    } else if (key === 'password_migration') {
      // Write-only secret: sealed; kept when the PATCH leaves it out.
      const { secret, ...rest } = value as { secret?: string } & Record<string, unknown>;
      const previous = current.password_migration?.secret_encrypted;
      settings.password_migration = {
        ...(plain(rest) as object),
        ...(secret !== undefined
          ? { secret_encrypted: sealMigration(secret) }
          : previous
            ? { secret_encrypted: previous }
            : {}),
      };
    } else if (key === 'oauth_providers') {
      settings.oauth_providers = mergeProviders(
        current.oauth_providers ?? {},
        value as Record<string, unknown>,
        seal,
      );
    } else {
      settings[key] = plain(value);
    }
    // A key given its current value has not changed (a secret given again is sealed anew: changed).
    if (!isDeepStrictEqual(current[key], settings[key])) changed.push(key);
  }
  return { settings, changed };
}

/** Keeps the first occurrence of each string. */
export function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
