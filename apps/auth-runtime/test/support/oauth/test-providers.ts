// Identity providers for the OAuth e2e tests, all on loopback:
// - real OpenID Connect providers (oidc-provider v9) in a child process, one per "provider shape";
// - a GitHub-style plain OAuth server, Apple's token endpoint behind a proxy that checks the ES256
//   client secret JWT, and token endpoints that fail or never answer — in this process.
import { spawn } from 'node:child_process';
import { createHash, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';

export const CALLBACK_URL = 'http://auth.test/v1/auth/oauth/callback';

export interface IdpInstanceSpec {
  name: string;
  clientId: string;
  clientSecret: string;
  routes?: Record<string, string>;
  scopes?: string[];
}

export interface OidcIdp {
  issuers: Record<string, string>;
  stop: () => void;
}

/** Starts oidc-provider instances in a child process (oidc-provider is ESM-only; Jest is CommonJS). */
export function startOidcIdp(instances: IdpInstanceSpec[]): Promise<OidcIdp> {
  const spec = JSON.stringify({
    instances: instances.map((i) => ({ ...i, redirectUri: CALLBACK_URL })),
  });
  const child = spawn(process.execPath, [join(__dirname, 'oidc-idp.mjs'), spec], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      const issuers = JSON.parse(out.slice(0, nl)) as Record<string, string>;
      resolve({ issuers, stop: () => void child.kill('SIGTERM') });
    });
    child.on('exit', (code) => reject(new Error(`oidc-idp exited with ${code}: ${stderr}`)));
  });
}

interface StoredCookie {
  name: string;
  value: string;
  host: string;
  path: string;
}

/** A minimal browser cookie jar: host and path scoping, Max-Age/Expires removal. */
export class CookieJar {
  private readonly cookies = new Map<string, StoredCookie>();

  store(url: URL, setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = url.pathname.replace(/\/[^/]*$/, '') || '/';
      let expired = false;
      for (const attr of attrs) {
        const [k, v = ''] = attr.split('=');
        const key = k.toLowerCase();
        if (key === 'path' && v) path = v;
        if (key === 'max-age' && Number(v) <= 0) expired = true;
        if (key === 'expires' && Date.parse(v) < Date.now()) expired = true;
      }
      const id = `${url.host}|${path}|${name}`;
      if (expired) this.cookies.delete(id);
      else this.cookies.set(id, { name, value, host: url.host, path });
    }
  }

  header(url: URL): string {
    return [...this.cookies.values()]
      .filter(
        (c) =>
          c.host === url.host &&
          (url.pathname === c.path ||
            url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`)),
      )
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }
}

/** What the provider sends back to our callback: a GET redirect, or Apple's form_post. */
export type ProviderReturn =
  | { method: 'GET'; search: string; params: URLSearchParams }
  | { method: 'POST'; fields: Record<string, string> };

export interface ProviderLogin {
  account: string;
  claims?: Record<string, unknown>;
  decline?: boolean;
}

function decodeHtml(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_m, d: string) => String.fromCharCode(Number(d)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * Plays the user's browser at the provider: follows the authorization URL, completes the login
 * (and consent) interaction with plain HTTP requests and a cookie jar, and stops at our callback.
 */
export async function loginAtProvider(
  authorizationUrl: string,
  login: ProviderLogin,
  jar = new CookieJar(),
): Promise<ProviderReturn> {
  let url = new URL(authorizationUrl);
  for (let hop = 0; hop < 12; hop++) {
    if (url.toString().startsWith(CALLBACK_URL))
      return { method: 'GET', search: url.search, params: url.searchParams };
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header(url) } });
    jar.store(url, res.headers.getSetCookie());
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      const interaction = /^\/interaction\/([^/]+)$/.exec(next.pathname);
      if (!interaction) {
        url = next;
        continue;
      }
      const loginUrl = new URL(`/interaction/${interaction[1]}/login`, next);
      const done = await fetch(loginUrl, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: jar.header(loginUrl), 'content-type': 'application/json' },
        body: JSON.stringify(login),
      });
      jar.store(loginUrl, done.headers.getSetCookie());
      const resume = done.headers.get('location');
      if (!resume) throw new Error(`provider login failed: ${done.status} ${await done.text()}`);
      url = new URL(resume, loginUrl);
      continue;
    }
    const html = await res.text();
    if (res.status === 200 && html.includes('<form')) {
      const fields: Record<string, string> = {};
      for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
        fields[decodeHtml(m[1])] = decodeHtml(m[2]);
      return { method: 'POST', fields };
    }
    throw new Error(`unexpected provider answer ${res.status}: ${html.slice(0, 300)}`);
  }
  throw new Error('too many redirects at the provider');
}

// ------------------------------------------------------------------ local HTTP providers

export interface GitHubAccount {
  id: number;
  login: string;
  emails: { email: string; primary: boolean; verified: boolean }[];
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  account: GitHubAccount;
}

export interface AppleProxyConfig {
  upstreamTokenUrl: string;
  upstreamSecret: string;
  publicKey: KeyObject;
  teamId: string;
  keyId: string;
  clientId: string;
  audience: string;
}

export interface AppleSecretSeen {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * GitHub's OAuth endpoints (`/login/oauth/authorize`, `/login/oauth/access_token`, `/user`,
 * `/user/emails`, PKCE S256 enforced), Apple's token endpoint as a checking proxy, and token
 * endpoints that answer 500 (`/fail/token`) or never (`/hang/token`).
 */
export class LocalProviders {
  url = '';
  readonly github = {
    clientId: 'github-client',
    clientSecret: 'github-secret',
    decline: false,
    tokenStatus: 200,
  };
  githubAccount: GitHubAccount = { id: 1, login: 'octo', emails: [] };
  apple: AppleProxyConfig | null = null;
  readonly appleSecretsSeen: AppleSecretSeen[] = [];
  readonly hangingRequests: string[] = [];
  private readonly codes = new Map<string, IssuedCode>();
  private readonly tokens = new Map<string, GitHubAccount>();
  private readonly sockets = new Set<Socket>();
  private server: Server | null = null;

  async start(): Promise<void> {
    this.server = createServer(
      (req, res) =>
        void this.handle(req, res).catch((e: unknown) => json(res, 500, { error: String(e) })),
    );
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    this.url = `http://127.0.0.1:${address.port}`;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /github/login/oauth/authorize') return this.githubAuthorize(url, res);
    if (route === 'POST /github/login/oauth/access_token')
      return this.githubToken(await readBody(req), res);
    if (route === 'GET /github/user' || route === 'GET /github/user/emails')
      return this.githubApi(req, url, res);
    if (route === 'POST /apple/auth/token') return this.appleToken(await readBody(req), res);
    if (route === 'POST /fail/token') {
      await readBody(req);
      return json(res, 500, { error: 'server_error' });
    }
    if (route === 'POST /hang/token') {
      this.hangingRequests.push(url.pathname);
      return; // never answers; stop() destroys the socket
    }
    json(res, 404, { error: 'not_found' });
  }

  private githubAuthorize(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri') ?? '';
    const target = new URL(redirectUri);
    target.searchParams.set('state', q.get('state') ?? '');
    if (
      q.get('client_id') !== this.github.clientId ||
      q.get('code_challenge_method') !== 'S256' ||
      !q.get('code_challenge')
    ) {
      target.searchParams.set('error', 'invalid_request');
    } else if (this.github.decline) {
      target.searchParams.set('error', 'access_denied');
    } else {
      const code = randomBytes(16).toString('hex');
      this.codes.set(code, {
        clientId: q.get('client_id')!,
        redirectUri,
        challenge: q.get('code_challenge')!,
        account: this.githubAccount,
      });
      target.searchParams.set('code', code);
    }
    res.writeHead(302, { location: target.toString() });
    res.end();
  }

  private githubToken(body: string, res: ServerResponse): void {
    if (this.github.tokenStatus !== 200)
      return json(res, this.github.tokenStatus, { error: 'server_error' });
    const form = new URLSearchParams(body);
    const issued = this.codes.get(form.get('code') ?? '');
    this.codes.delete(form.get('code') ?? '');
    const verifier = form.get('code_verifier') ?? '';
    const ok =
      issued &&
      form.get('client_id') === this.github.clientId &&
      form.get('client_secret') === this.github.clientSecret &&
      form.get('redirect_uri') === issued.redirectUri &&
      createHash('sha256').update(verifier).digest('base64url') === issued.challenge;
    // GitHub answers 200 with an error member for a bad code.
    if (!ok)
      return json(res, 200, {
        error: 'bad_verification_code',
        error_description: 'The code passed is incorrect or expired.',
      });
    const token = `gho_${randomBytes(16).toString('hex')}`;
    this.tokens.set(token, issued.account);
    json(res, 200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
  }

  private githubApi(req: IncomingMessage, url: URL, res: ServerResponse): void {
    const auth = /^(?:Bearer|token) (.+)$/.exec(req.headers.authorization ?? '');
    const account = auth ? this.tokens.get(auth[1]) : undefined;
    if (!account) return json(res, 401, { message: 'Bad credentials' });
    if (url.pathname.endsWith('/emails'))
      return json(
        res,
        200,
        account.emails.map((e) => ({ ...e, visibility: e.primary ? 'private' : null })),
      );
    json(res, 200, { id: account.id, login: account.login, email: null });
  }

  /** Checks Apple's client secret JWT, then forwards with the upstream provider's static secret. */
  private async appleToken(body: string, res: ServerResponse): Promise<void> {
    const apple = this.apple;
    if (!apple) return json(res, 500, { error: 'apple not configured' });
    const form = new URLSearchParams(body);
    const secret = form.get('client_secret') ?? '';
    try {
      const decoded = jwt.decode(secret, { complete: true });
      const claims = jwt.verify(secret, apple.publicKey, {
        algorithms: ['ES256'],
        issuer: apple.teamId,
        subject: apple.clientId,
        audience: apple.audience,
      });
      if (!decoded || decoded.header.kid !== apple.keyId || typeof claims !== 'object')
        throw new Error('bad kid');
      this.appleSecretsSeen.push({
        header: decoded.header as unknown as Record<string, unknown>,
        claims: claims,
      });
    } catch {
      return json(res, 400, { error: 'invalid_client' });
    }
    form.set('client_secret', apple.upstreamSecret);
    const upstream = await fetch(apple.upstreamTokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    res.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
    });
    res.end(await upstream.text());
  }
}
