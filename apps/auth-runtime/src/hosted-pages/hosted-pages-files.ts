import { WebAppFiles, webAppCsp } from '@gatehouse/http';

/** The built hosted pages (dist/auth-pages). */
export class HostedPagesFiles extends WebAppFiles {
  constructor(dir: string = WebAppFiles.locate('auth-pages')) {
    super(dir);
  }
}

/** The hosted pages' page: API calls to the auth runtime only (its public origin is normally the page's own). */
export const hostedPagesCsp = webAppCsp;
