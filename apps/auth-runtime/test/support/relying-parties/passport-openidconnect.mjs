// passport-openidconnect (Jared Hanson's strategy; no PKCE), wired as its README says with
// `nonce: true`, for a confidential client registered with require_pkce: false and
// client_secret_post (the library sends its secret in the body). docs/oidc.md, "Relying parties",
// shows the same lines. /me answers what the strategy gave.
import express from 'express';
import session from 'express-session';
import OpenIDConnectStrategy from 'passport-openidconnect';
import { Passport } from 'passport';

export function passportOpenidconnectApp({ issuer, clientId, clientSecret, origin, secret }) {
  const passport = new Passport();
  passport.use(
    'gatehouse',
    new OpenIDConnectStrategy(
      {
        issuer,
        authorizationURL: `${issuer}/authorize`,
        tokenURL: `${issuer}/token`,
        userInfoURL: `${issuer}/userinfo`,
        clientID: clientId,
        clientSecret,
        callbackURL: `${origin}/callback`,
        scope: ['profile', 'email'],
        nonce: true,
      },
      (iss, profile, context, idToken, cb) =>
        cb(null, {
          issuer: iss,
          profile: { id: profile.id, username: profile.username, emails: profile.emails },
          idToken,
        }),
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
    passport.authenticate('gatehouse', {
      successRedirect: '/me',
      failureRedirect: '/failed',
      failureMessage: true,
    }),
  );
  app.get('/failed', (req, res) => res.status(401).json({ messages: req.session.messages ?? [] }));
  app.get('/me', (req, res) => res.json({ user: req.user ?? null }));
  return app;
}
