import { WebAppFiles, webAppCsp } from '@gatehouse/http';

/** The built console (dist/console). */
export class ConsoleFiles extends WebAppFiles {
  constructor(dir: string = WebAppFiles.locate('console')) {
    super(dir);
  }
}

/** The console's page: API calls to the control plane (its own origin) and the auth runtime. */
export const consoleCsp = webAppCsp;
