// openid-client's Passport strategy (openid-client/passport), wired as its README says, with
// express-session; `usePAR: true` pushes the authorization request first (RFC 9126).
// docs/oidc.md, "Relying parties", shows the same lines. /me answers what the strategy gave.
import express from 'express';
import session from 'express-session';
import * as client from 'openid-client';
import { Strategy } from 'openid-client/passport';
import { Passport } from 'passport';

export async function openidClientPassportApp({
  issuer,
  clientId,
  clientSecret,
  origin,
  secret,
  usePAR = false,
}) {
  const config = await client.discovery(new URL(issuer), clientId, clientSecret, undefined, {
    execute: [client.allowInsecureRequests],
  }); // http: loopback only
  const passport = new Passport();
  passport.use(
    'gatehouse',
    new Strategy(
      { config, scope: 'openid email profile', callbackURL: `${origin}/callback`, usePAR },
      async (tokens, verified) => {
        const claims = tokens.claims();
        const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
        verified(null, { claims, userinfo });
      },
    ),
  );
  passport.serializeUser((user, done) => done(null, user));
  passport.deserializeUser((user, done) => done(null, user));

  const app = express();
  app.use(session({ secret, resave: false, saveUninitialized: false }));
  app.use(passport.authenticate('session'));
  app.get('/login', passport.authenticate('gatehouse'));
  app.get(
    '/callback',
    passport.authenticate('gatehouse', { successRedirect: '/me', failureRedirect: '/failed' }),
  );
  app.get('/me', (req, res) => res.json({ user: req.user ?? null }));
  return app;
}
