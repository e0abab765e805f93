import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';

const OIDC_CLIENT_TS = join(
  __dirname,
  '../../../../node_modules/oidc-client-ts/dist/browser/oidc-client-ts.min.js',
);

export interface RelyingPartySettings {
  issuer: string;
  clientId: string;
  scope: string;
}

/** What the callback page puts on `window.rpResult` once oidc-client-ts has handled the redirect. */
export type RelyingPartyResult =
  | {
      ok: true;
      sub: string;
      email: string | null;
      id_token: string;
      scope: string;
      amr: string[] | null;
    }
  | { ok: false; error: string; description: string | null };

/**
 * A single-page relying party as people write them: oidc-client-ts's browser build (not our code)
 * with a public client, authorization code + PKCE, on its own origin (`http://127.0.0.1:<port>`).
 * `/` exposes `window.rp.signIn(args)` (UserManager.signinRedirect); `/callback` runs
 * signinRedirectCallback and leaves the outcome on `window.rpResult` and in `#status`.
 */
export class RelyingPartySpa {
  private server: Server | null = null;
  settings: RelyingPartySettings = {
    issuer: '',
    clientId: '',
    scope: 'openid profile email offline_access',
  };

  constructor(
    readonly origin: string,
    private readonly redirectUri: string,
  ) {}

  async start(): Promise<void> {
    const library = readFileSync(OIDC_CLIENT_TS);
    this.server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', this.origin).pathname;
      if (path === '/oidc-client-ts.js')
        res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(library);
      else if (path === '/' || path === '/callback')
        res
          .writeHead(200, {
            'Content-Type': 'text/html; charset=utf-8',
            'Cache-Control': 'no-store',
          })
          .end(this.html());
      else res.writeHead(404).end();
    });
    const port = Number(new URL(this.origin).port);
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', resolve);
    });
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  private html(): string {
    const settings = JSON.stringify({
      authority: this.settings.issuer,
      client_id: this.settings.clientId,
      redirect_uri: this.redirectUri,
      response_type: 'code',
      scope: this.settings.scope,
      loadUserInfo: false,
    });
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Relying party</title><script src="/oidc-client-ts.js"></script></head>
<body><main><h1>Relying party</h1><p id="status">ready</p></main>
<script>
  const manager = new oidc.UserManager(${settings});
  window.rp = { signIn: (args) => manager.signinRedirect(args) };
  if (location.pathname === '/callback') {
    const status = document.getElementById('status');
    manager.signinRedirectCallback().then(
      (user) => {
        window.rpResult = { ok: true, sub: user.profile.sub, email: user.profile.email ?? null, id_token: user.id_token, scope: user.scope, amr: user.profile.amr ?? null };
        status.textContent = 'signed-in';
      },
      (err) => {
        window.rpResult = { ok: false, error: err.error ?? err.message, description: err.error_description ?? null };
        status.textContent = 'failed';
      },
    );
  }
</script></body></html>`;
  }
}
