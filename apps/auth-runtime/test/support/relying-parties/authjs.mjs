// Auth.js (@auth/express) with the generic OpenID Connect provider (`type: "oidc"`), wired as its
// README says; docs/oidc.md, "Relying parties", shows the same lines. /me answers the session.
import express from 'express';
import { ExpressAuth, getSession } from '@auth/express';

export function authjsApp({ issuer, clientId, clientSecret, secret }) {
  const authConfig = {
    providers: [
      { id: 'gatehouse', name: 'Gatehouse', type: 'oidc', issuer, clientId, clientSecret },
    ],
    secret,
    trustHost: true,
    callbacks: {
      // Auth.js's documented way to keep what the provider said (without a database, token.sub is Auth.js's own id).
      jwt: ({ token, profile }) => (profile ? { ...token, subject: profile.sub } : token),
      session: ({ session, token }) => ({
        ...session,
        user: { ...session.user, subject: token.subject },
      }),
    },
  };
  const app = express();
  app.set('trust proxy', true);
  // Express 5 (path-to-regexp 8): the prefix "/auth" is what the README's "/auth/*" was.
  app.use('/auth', ExpressAuth(authConfig));
  app.get('/me', async (req, res) => res.json({ session: await getSession(req, authConfig) }));
  return app;
}
