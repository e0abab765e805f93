import { Inject, Injectable } from '@nestjs/common';
import { Resolver } from 'node:dns/promises';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { ProblemError } from '@gatehouse/problem-details';

/** The bound on one TXT lookup, tries included: an answer or a problem within it, never a hung request. */
export const DNS_LOOKUP_MS = 5000;

/** Codes that mean the name has no TXT record: an answer, not a failure. */
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

/**
 * TXT lookups for domain verification through `DNS_RESOLVERS` (or the system's servers): the
 * record's strings joined per record, `[]` when the name has none; a server that does not answer
 * in time or fails is 503 `service-unavailable`, saying so.
 */
@Injectable()
export class DnsTxtLookup {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async txt(name: string): Promise<string[]> {
    const resolver = new Resolver({ timeout: 2000, tries: 2 });
    if (this.config.dns.resolvers.length) resolver.setServers([...this.config.dns.resolvers]);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        resolver.cancel();
        reject(Object.assign(new Error('DNS lookup timed out'), { code: 'ETIMEOUT' }));
      }, DNS_LOOKUP_MS);
    });
    try {
      const records = await Promise.race([resolver.resolveTxt(name), deadline]);
      return records.map((chunks) => chunks.join(''));
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (typeof code === 'string' && NO_RECORD.has(code)) return [];
      throw new ProblemError('service-unavailable', {
        detail: `The DNS lookup of the TXT record ${name} failed (${typeof code === 'string' ? code : 'error'}); try again later.`,
      });
    } finally {
      clearTimeout(timer);
    }
  }
}
