// The relying-party apps of oidc-relying-parties.e2e-spec, run as one child process (the
// libraries are ES modules; Jest's CommonJS sandbox does not load them). argv[2] is JSON:
// { issuer, secret, apps: [{ kind, port, clientId, clientSecret, usePAR? }] }; each app listens
// on http://127.0.0.1:<port>. Prints one line "ready" once every app listens.
import { authjsApp } from './authjs.mjs';
import { expressOpenidConnectApp } from './express-openid-connect.mjs';
import { openidClientPassportApp } from './openid-client-passport.mjs';
import { passportOpenidconnectApp } from './passport-openidconnect.mjs';

const { issuer, secret, apps } = JSON.parse(process.argv[2]);
const makers = {
  authjs: authjsApp,
  'openid-client-passport': openidClientPassportApp,
  'passport-openidconnect': passportOpenidconnectApp,
  'express-openid-connect': expressOpenidConnectApp,
};

await Promise.all(
  apps.map(async ({ kind, port, ...rest }) => {
    const origin = `http://127.0.0.1:${port}`;
    const app = await makers[kind]({ issuer, secret, origin, ...rest });
    app.use((err, req, res, _next) =>
      res
        .status(500)
        .json({ error: String(err?.message ?? err), cause: String(err?.cause?.message ?? '') }),
    );
    await new Promise((resolve, reject) =>
      app.listen(port, '127.0.0.1', (err) => (err ? reject(err) : resolve())),
    );
  }),
);
process.stdout.write('ready\n');
process.on('SIGTERM', () => process.exit(0));
