// A real OpenID Connect provider (oidc-provider v9) for the OAuth e2e tests, run as a child process
// because oidc-provider is ESM-only and Jest's CommonJS sandbox cannot import it.
//
// argv[2] is JSON: { instances: [{ name, clientId, clientSecret, redirectUri, routes, scopes }] }.
// Each instance listens on its own loopback port with issuer http://127.0.0.1:<port>, requires PKCE
// (S256), puts email/email_verified into the ID token and serves these test-only interaction routes:
//   POST /interaction/:uid/login   body JSON { account, claims, decline? }
// which complete login and consent programmatically (or decline with access_denied).
// Prints one JSON line { <name>: issuer, ... } on stdout when every instance listens.
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const { instances } = JSON.parse(process.argv[2]);
const accounts = new Map();

function readJson(req) {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      try {
        resolve(data ? JSON.parse(data) : {});
      } catch (e) {
        reject(e);
      }
    });
    req.on('error', reject);
  });
}

async function start(spec) {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    format: 'jwk',
  });

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: spec.clientId,
        client_secret: spec.clientSecret,
        redirect_uris: [spec.redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    claims: { email: ['email', 'email_verified'], profile: ['name'], name: ['name'] },
    scopes: ['openid', ...(spec.scopes ?? [])],
    conformIdTokenClaims: false,
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({ sub, ...(accounts.get(`${spec.name}:${sub}`) ?? {}) }),
    }),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    jwks: { keys: [{ ...signingKey, kid: `${spec.name}-key`, use: 'sig', alg: 'RS256' }] },
    cookies: { keys: ['gatehouse-test-idp-cookie-key'] },
    routes: spec.routes ?? {},
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 120,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
      Grant: 600,
    },
  });
  const callback = provider.callback();

  server.on('request', (req, res) => {
    const m = /^\/interaction\/([^/?]+)\/login$/.exec(req.url ?? '');
    if (!m || req.method !== 'POST') {
      callback(req, res);
      return;
    }
    void (async () => {
      try {
        const body = await readJson(req);
        const details = await provider.interactionDetails(req, res);
        if (body.decline) {
          await provider.interactionFinished(
            req,
            res,
            { error: 'access_denied', error_description: 'The user declined' },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        accounts.set(`${spec.name}:${body.account}`, body.claims ?? {});
        const grant = new provider.Grant({
          accountId: body.account,
          clientId: details.params.client_id,
        });
        grant.addOIDCScope(String(details.params.scope ?? 'openid'));
        grant.addOIDCClaims(['email', 'email_verified', 'name']);
        const grantId = await grant.save();
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: body.account }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      } catch (e) {
        res.statusCode = 400;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ error: String(e && e.message ? e.message : e) }));
      }
    })();
  });
  return [spec.name, issuer];
}

const issuers = Object.fromEntries(await Promise.all(instances.map(start)));
process.stdout.write(`${JSON.stringify(issuers)}\n`);
process.on('SIGTERM', () => process.exit(0));
