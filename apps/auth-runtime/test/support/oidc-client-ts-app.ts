import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';

const OIDC_CLIENT_TS = join(
  __dirname,
  '../../../../node_modules/oidc-client-ts/dist/browser/oidc-client-ts.min.js',
);

/** What `window.rp.user()` gives: the User oidc-client-ts keeps (null when signed out). */
export interface SpaUser {
  sub: string;
  email: string | null;
  preferred_username: string | null;
  id_token: string;
  access_token: string;
  refresh_token: string | null;
  scope: string;
}

/**
 * A single-page application wired as oidc-client-ts's README and docs say: a public client
 * (code + PKCE), `loadUserInfo`, a `silent_redirect_uri` for iframe renewal and a
 * `post_logout_redirect_uri` for `signoutRedirect()`. Pages: `/` (exposes `window.rp`),
 * `/callback` (signinRedirectCallback), `/silent` (signinCallback inside the iframe) and
 * `/signed-out` (signoutRedirectCallback). Outcomes land on `window.rpResult` and in `#status`.
 */
export class OidcClientTsApp {
  private server: Server | null = null;
  issuer = '';
  clientId = '';

  constructor(readonly origin: string) {}

  get redirectUri(): string {
    return `${this.origin}/callback`;
  }

  get silentRedirectUri(): string {
    return `${this.origin}/silent`;
  }

  get postLogoutRedirectUri(): string {
    return `${this.origin}/signed-out`;
  }

  async start(): Promise<void> {
    const library = readFileSync(OIDC_CLIENT_TS);
    this.server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', this.origin).pathname;
      if (path === '/oidc-client-ts.js')
        res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(library);
      else if (['/', '/callback', '/silent', '/signed-out'].includes(path))
        res
          .writeHead(200, {
            'Content-Type': 'text/html; charset=utf-8',
            'Cache-Control': 'no-store',
          })
          .end(this.html());
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(Number(new URL(this.origin).port), '127.0.0.1', resolve);
    });
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  private html(): string {
    const settings = JSON.stringify({
      authority: this.issuer,
      client_id: this.clientId,
      redirect_uri: this.redirectUri,
      silent_redirect_uri: this.silentRedirectUri,
      post_logout_redirect_uri: this.postLogoutRedirectUri,
      response_type: 'code',
      scope: 'openid profile email offline_access',
      loadUserInfo: true,
      automaticSilentRenew: false,
    });
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>SPA</title><script src="/oidc-client-ts.js"></script></head>
<body><main><h1>SPA</h1><p id="status">ready</p></main>
<script>
  const manager = new oidc.UserManager(${settings});
  const status = document.getElementById('status');
  const view = (user) => user && { sub: user.profile.sub, email: user.profile.email ?? null, preferred_username: user.profile.preferred_username ?? null, id_token: user.id_token, access_token: user.access_token, refresh_token: user.refresh_token ?? null, scope: user.scope };
  const failure = (err) => ({ ok: false, error: err.error ?? err.message, description: err.error_description ?? null });
  window.rp = {
    signIn: (args) => manager.signinRedirect(args),
    user: async () => view(await manager.getUser()),
    // With a refresh token, signinSilent() uses the refresh_token grant.
    renew: async () => view(await manager.signinSilent()),
    // Without one, it loads the authorization endpoint with prompt=none in a hidden iframe.
    renewInIframe: async () => {
      const user = await manager.getUser();
      user.refresh_token = undefined;
      await manager.storeUser(user);
      try { return { ok: true, user: view(await manager.signinSilent()) }; } catch (err) { return failure(err); }
    },
    signOut: (args) => manager.signoutRedirect(args),
  };
  const done = (promise, ok) => promise.then(
    (value) => { window.rpResult = { ok: true, ...ok(value) }; status.textContent = 'done'; },
    (err) => { window.rpResult = failure(err); status.textContent = 'failed'; },
  );
  if (location.pathname === '/callback') done(manager.signinRedirectCallback(), (user) => ({ user: view(user) }));
  if (location.pathname === '/silent') manager.signinCallback();
  if (location.pathname === '/signed-out') done(manager.signoutRedirectCallback(), () => ({ signedOut: true }));
</script></body></html>`;
  }
}
