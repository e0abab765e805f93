// A small relying party that signs people in with a Gatehouse project's OpenID Connect provider,
// using openid-client (OpenID Certified). Run: ISSUER=… CLIENT_ID=… CLIENT_SECRET=… node server.mjs
// (see README.md). No framework: node:http and a cookie that holds the PKCE verifier and state.
import { createServer } from 'node:http';
import { randomBytes, createHmac, timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';

const port = Number(process.env.PORT ?? 3000);
const base = process.env.BASE_URL ?? `http://localhost:${port}`;
const redirectUri = `${base}/callback`;
const issuer = new URL(process.env.ISSUER ?? '');
const cookieKey = randomBytes(32);

const config = await client.discovery(
  issuer,
  process.env.CLIENT_ID,
  process.env.CLIENT_SECRET || undefined,
  undefined,
  {
    // Plain http is fine on localhost while trying it out; use https in production.
    execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
  },
);

/** A signed cookie, so the browser cannot change the PKCE verifier or state it carries. */
function seal(value) {
  const body = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${body}.${createHmac('sha256', cookieKey).update(body).digest('base64url')}`;
}
function unseal(sealed) {
  const [body, mac] = String(sealed ?? '').split('.');
  if (!body || !mac) return null;
  const expected = createHmac('sha256', cookieKey).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected)
    ? JSON.parse(Buffer.from(body, 'base64url').toString())
    : null;
}
function cookie(req, name) {
  return (req.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim().split('='))
    .find(([k]) => k === name)?.[1];
}
const escape = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
function page(res, body, headers = {}) {
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    ...headers,
  });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Example app</title><style>body{font-family:system-ui;max-width:40rem;margin:3rem auto}</style></head><body><main>${body}</main></body></html>`,
  );
}

createServer(async (req, res) => {
  const url = new URL(req.url, base);
  try {
    if (url.pathname === '/') {
      const session = unseal(cookie(req, 'rp_session'));
      if (!session)
        return page(res, '<h1>Example app</h1><p><a href="/login">Sign in with Gatehouse</a></p>');
      return page(
        res,
        `<h1>Signed in</h1><p>Hello, <strong>${escape(session.claims.email ?? session.claims.sub)}</strong>.</p><pre>${escape(JSON.stringify(session.claims, null, 2))}</pre><p><a href="/logout">Sign out</a></p>`,
      );
    }
    if (url.pathname === '/login') {
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const target = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      res.writeHead(302, {
        location: target.href,
        'set-cookie': `rp_flow=${seal({ verifier, state })}; HttpOnly; SameSite=Lax; Path=/`,
      });
      return res.end();
    }
    if (url.pathname === '/callback') {
      const flow = unseal(cookie(req, 'rp_flow'));
      if (!flow)
        return page(
          res,
          '<p>This sign-in was not started here. <a href="/login">Try again</a>.</p>',
        );
      const tokens = await client.authorizationCodeGrant(config, url, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
      });
      const claims = tokens.claims();
      res.writeHead(302, {
        location: '/',
        'set-cookie': [
          `rp_session=${seal({ claims, id_token: tokens.id_token })}; HttpOnly; SameSite=Lax; Path=/`,
          'rp_flow=; Max-Age=0; Path=/',
        ],
      });
      return res.end();
    }
    if (url.pathname === '/logout') {
      const session = unseal(cookie(req, 'rp_session'));
      const target = session
        ? client.buildEndSessionUrl(config, { id_token_hint: session.id_token })
        : new URL('/', base);
      res.writeHead(302, { location: target.href, 'set-cookie': 'rp_session=; Max-Age=0; Path=/' });
      return res.end();
    }
    res.writeHead(404).end('not found');
  } catch (err) {
    page(
      res,
      `<h1>Sign-in failed</h1><p>${escape(err.error ?? err.message)}</p><p><a href="/login">Try again</a></p>`,
    );
  }
}).listen(port, () => console.log(`example relying party on ${base} (issuer ${issuer.href})`));
