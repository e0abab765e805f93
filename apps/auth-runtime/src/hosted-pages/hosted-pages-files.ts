import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { WebAppFiles, webAppCsp } from '@gatehouse/http';

/** The built hosted pages (dist/auth-pages). */
export class HostedPagesFiles extends WebAppFiles {
  constructor(dir: string = WebAppFiles.locate('auth-pages')) {
    super(dir);
  }
}

/** The hosted pages' page: API calls to the auth runtime only (its public origin is normally the page's own). */
export const hostedPagesCsp = webAppCsp;

const templates = new Map<string, string>();

/**
 * A server-rendered page of the hosted pages (apps/auth-pages/public/{name}): its HTML is the
 * pages' own, the auth runtime only fills in its placeholders. Read from the build
 * (dist/auth-pages, where Vite copies `public/`), else from the source tree (an auth runtime run
 * before the pages were built), once per process.
 */
export function hostedPageTemplate(name: 'sign-out.html', dirs: string[] = templateDirs()): string {
  const cached = templates.get(name);
  if (cached !== undefined) return cached;
  const file = dirs.map((dir) => join(dir, name)).find((candidate) => existsSync(candidate));
  if (!file)
    throw new Error(`the hosted page template ${name} is missing (apps/auth-pages/public)`);
  const html = readFileSync(file, 'utf8');
  templates.set(name, html);
  return html;
}

function templateDirs(): string[] {
  // From apps/auth-runtime/src/hosted-pages, or dist/apps/auth-runtime/src/hosted-pages.
  return [
    WebAppFiles.locate('auth-pages'),
    resolve(__dirname, '../../../auth-pages/public'),
    resolve(__dirname, '../../../../../apps/auth-pages/public'),
  ];
}
