// An Express API protected by @gatehouse/server (docs/sdk.md). Run it against `npm start`:
//   GATEHOUSE_PROJECT_ID=prj_… GATEHOUSE_PROJECT_KEY=pk_… npm run example:express-api
// then call it with an access token of that project's users:
//   curl -H "Authorization: Bearer $TOKEN" http://localhost:3000/api/me
// GET /api/invoices also needs an active organization granting invoices:read (docs/sdk.md).
import express from 'express';
import { createGatehouse, verifyWebhook } from '@gatehouse/server';
import { requireAuth, requirePermission, requireRecentAuth } from '@gatehouse/server/express';

const env = process.env;
if (!env.GATEHOUSE_PROJECT_ID || !env.GATEHOUSE_PROJECT_KEY) {
  console.error(
    "Set GATEHOUSE_PROJECT_ID and GATEHOUSE_PROJECT_KEY (the project's id and publishable key, from the console or the admin API).",
  );
  process.exit(1);
}

const gatehouse = createGatehouse({
  authUrl: env.GATEHOUSE_AUTH_URL ?? 'http://localhost:4000',
  projectId: env.GATEHOUSE_PROJECT_ID,
  projectKey: env.GATEHOUSE_PROJECT_KEY,
  // GATEHOUSE_REVOCATION=1: a signed-out session is refused within GATEHOUSE_REVOCATION_CACHE_SECONDS (default 10).
  revocation: env.GATEHOUSE_REVOCATION === '1' && {
    cacheSeconds: Number(env.GATEHOUSE_REVOCATION_CACHE_SECONDS ?? 10),
  },
});

const app = express();

// Any signed-in user of the project.
app.get('/api/me', requireAuth(gatehouse), (req, res) => {
  res.json({ user_id: req.auth.sub, session_id: req.auth.sid, admin: req.auth.adm });
});

// A sensitive action: the user must have proved a credential in the last 5 minutes
// (403 reauthentication-required otherwise; the client calls POST /v1/auth/reauthenticate and retries).
app.post('/api/account/export', requireAuth(gatehouse), requireRecentAuth(300), (req, res) => {
  res.json({ exported_for: req.auth.sub });
});

// An organization's data: the token's active organization (the `org` claim, set by
// POST /v1/auth/organizations/active) must grant invoices:read, a permission of the project's catalog
// that the member's role holds (403 forbidden otherwise).
app.get('/api/invoices', requireAuth(gatehouse), requirePermission('invoices:read'), (req, res) => {
  res.json({ organization_id: req.auth.org.id, invoices: [] });
});

// Gatehouse's webhooks (Standard Webhooks signatures): verify against the raw body, then act.
app.post('/webhooks/gatehouse', express.raw({ type: 'application/json' }), async (req, res) => {
  try {
    const event = await verifyWebhook(req.headers, req.body, env.GATEHOUSE_WEBHOOK_SECRET ?? '');
    console.log(`webhook verified: ${event.type} ${event.id}`);
    res.status(204).end();
  } catch (err) {
    console.log(`webhook refused: ${err.message}`);
    res.status(400).json({ error: 'invalid signature' });
  }
});

const server = app.listen(Number(env.PORT ?? 3000), env.HOST ?? '127.0.0.1', () => {
  console.log(
    `express-api listening on http://${env.HOST ?? '127.0.0.1'}:${server.address().port}`,
  );
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
