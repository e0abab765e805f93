// express-openid-connect (Auth0's middleware), wired as its README says, with the authorization
// code flow (`response_type: "code"`; its default is `id_token`) and `idpLogout: true` (its
// /logout signs out at the provider too). docs/oidc.md, "Relying parties", shows the same lines.
// /me answers what the middleware holds.
import express from 'express';
import { auth } from 'express-openid-connect';

export function expressOpenidConnectApp({ issuer, clientId, clientSecret, origin, secret }) {
  const app = express();
  app.use(
    auth({
      issuerBaseURL: issuer,
      baseURL: origin,
      clientID: clientId,
      clientSecret,
      secret,
      authRequired: false,
      idpLogout: true,
      authorizationParams: { response_type: 'code' },
    }),
  );
  app.get('/', (req, res) =>
    res
      .type('html')
      .send(
        `<!doctype html><title>App</title><p id="status">${req.oidc.isAuthenticated() ? 'signed-in' : 'signed-out'}</p>`,
      ),
  );
  app.get('/me', async (req, res) => {
    if (!req.oidc.isAuthenticated()) return res.json({ authenticated: false });
    res.json({
      authenticated: true,
      idTokenClaims: req.oidc.idTokenClaims,
      userinfo: await req.oidc.fetchUserInfo(),
      hasRefreshToken: typeof req.oidc.refreshToken === 'string',
    });
  });
  return app;
}
