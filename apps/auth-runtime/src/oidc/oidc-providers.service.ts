import { Inject, Injectable } from '@nestjs/common';
import type { Provider } from 'oidc-provider';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { sha256Hex } from '@gatehouse/crypto';
import { accessTokenTtl, SigningKeysService, type ResolvedProject } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { issuerOf, OidcProviderConfiguration } from './oidc-provider-configuration';

/** How long a built provider serves before its keys and settings are read again. */
const RECHECK_MS = 30_000;

interface BuiltProvider {
  provider: Provider;
  callback: ReturnType<Provider['callback']>;
  /** The project's settings the configuration reads (compared on every request: free, the project is cached). */
  settings: string;
  fingerprint: string;
  checkedAt: number;
}

/** What of a project the provider's configuration depends on, but for its keys. */
const settingsOf = (project: ResolvedProject): string =>
  JSON.stringify([
    project.name,
    project.settings.oidc ?? null,
    project.settings.token_claims ?? null,
    accessTokenTtl(project.settings.access_token_ttl_seconds),
  ]);

/**
 * The provider cache: one oidc-provider instance per project, built (OidcProviderConfiguration) on
 * first use and rebuilt when the project's settings change (at the next request: the project cache
 * is dropped when they do) or its signing keys do (checked every 30 s, so a rotated key signs within
 * 30 s on every instance); concurrent first uses share one build.
 */
@Injectable()
export class OidcProviders {
  private readonly built = new Map<string, BuiltProvider>();
  private readonly building = new Map<string, Promise<BuiltProvider>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: SigningKeysService,
    private readonly configuration: OidcProviderConfiguration,
    private readonly clock: Clock,
  ) {}

  issuer(projectId: string): string {
    return issuerOf(this.config, projectId);
  }

  async forProject(project: ResolvedProject): Promise<BuiltProvider> {
    const current = this.built.get(project.id);
    const settings = settingsOf(project);
    if (
      current &&
      current.settings === settings &&
      this.clock.nowMs() - current.checkedAt < RECHECK_MS
    )
      return current;
    let pending = this.building.get(project.id);
    if (!pending) {
      pending = this.refresh(project, current).finally(() => this.building.delete(project.id));
      this.building.set(project.id, pending);
    }
    return pending;
  }

  private async refresh(
    project: ResolvedProject,
    current: BuiltProvider | undefined,
  ): Promise<BuiltProvider> {
    await this.keys.ensureActive(project.id, 'RS256');
    const jwks = await this.keys.privateJwks(project.id);
    const settings = settingsOf(project);
    const fingerprint = sha256Hex(JSON.stringify([settings, jwks.map((k) => k.kid)]));
    if (current && current.fingerprint === fingerprint) {
      current.checkedAt = this.clock.nowMs();
      return current;
    }
    const provider = this.configuration.provider(project, jwks);
    const entry: BuiltProvider = {
      provider,
      callback: provider.callback(),
      settings,
      fingerprint,
      checkedAt: this.clock.nowMs(),
    };
    this.built.set(project.id, entry);
    return entry;
  }
}
