import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { createGatehouse, GatehouseAuthError, problemFor } from './index';

const AUTH = 'https://auth.example.test';
const PROJECT = 'prj_1';
const ISS = `${AUTH}/v1/projects/${PROJECT}`;
const MCP = 'https://mcp.example.com/mcp';
const REPORTS = 'https://reports.example.com/';

interface Key {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

async function key(kid: string): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return {
    kid,
    privateKey,
    jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' },
  };
}

/** An RFC 9068 access token as the project's OpenID Connect provider issues it for an API resource. */
function resourceToken(k: Key, claims: Record<string, unknown> = {}, typ = 'at+jwt') {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: ISS,
    aud: MCP,
    sub: 'usr_1',
    client_id: 'oc_1',
    scope: 'mcp:tools mcp:read',
    jti: 'j1',
    iat: now,
    exp: now + 300,
    ...claims,
  })
    .setProtectedHeader({ alg: 'ES256', kid: k.kid, typ })
    .sign(k.privateKey);
}

function fakeFetch(keys: Key[]): typeof globalThis.fetch {
  return async (input: string | URL | Request) => {
    const url = input instanceof Request ? input.url : input.toString();
    if (url === `${AUTH}/v1/auth/jwks.json`) return Response.json({ keys: keys.map((k) => k.jwk) });
    return new Response('not found', { status: 404 });
  };
}

async function refusal(promise: Promise<unknown>): Promise<GatehouseAuthError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatehouseAuthError);
  return err as GatehouseAuthError;
}

describe("verifyResourceToken (API resources: RFC 9068 tokens of the project's OpenID Connect provider)", () => {
  it('accepts a token for its resource and returns its claims with the scopes as a list', async () => {
    const k = await key('k1');
    const gatehouse = createGatehouse({
      authUrl: AUTH,
      projectId: PROJECT,
      projectKey: 'pk_test',
      resource: MCP,
      fetch: fakeFetch([k]),
    });
    const claims = await gatehouse.verifyResourceToken(await resourceToken(k), {
      scopes: ['mcp:tools'],
    });
    expect(claims).toEqual({
      iss: ISS,
      aud: MCP,
      sub: 'usr_1',
      client_id: 'oc_1',
      scope: 'mcp:tools mcp:read',
      scopes: ['mcp:tools', 'mcp:read'],
      jti: 'j1',
      iat: expect.any(Number),
      exp: expect.any(Number),
    });
  });

  it('compares the resource URL-normalised, as Gatehouse stores it', async () => {
    const k = await key('k1');
    const gatehouse = createGatehouse({
      authUrl: AUTH,
      projectId: PROJECT,
      projectKey: 'pk_test',
      resource: 'https://REPORTS.example.com',
      fetch: fakeFetch([k]),
    });
    expect(
      await gatehouse.verifyResourceToken(await resourceToken(k, { aud: REPORTS })),
    ).toMatchObject({ aud: REPORTS });
  });

  it("refuses a token for another API (resource A's token at resource B), a session token, a wrong typ, another issuer, a missing client_id and an expired token", async () => {
    const k = await key('k1');
    const b = createGatehouse({
      authUrl: AUTH,
      projectId: PROJECT,
      projectKey: 'pk_test',
      resource: REPORTS,
      fetch: fakeFetch([k]),
    });
    const forA = await resourceToken(k);
    expect(await refusal(b.verifyResourceToken(forA))).toMatchObject({
      code: 'invalid_token',
      status: 401,
      message: 'The access token is not valid for this API.',
    });
    const now = Math.floor(Date.now() / 1000);
    const session = await new SignJWT({
      iss: ISS,
      aud: PROJECT,
      sub: 'usr_1',
      sid: 's',
      tid: 't',
      adm: false,
      auth_time: now,
      iat: now,
      exp: now + 600,
    })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'JWT' })
      .sign(k.privateKey);
    const a = createGatehouse({
      authUrl: AUTH,
      projectId: PROJECT,
      projectKey: 'pk_test',
      resource: MCP,
      fetch: fakeFetch([k]),
    });
    for (const token of [
      session,
      await resourceToken(k, { aud: PROJECT }),
      await resourceToken(k, {}, 'JWT'),
      await resourceToken(k, { iss: `${AUTH}/v1/projects/prj_2` }),
      await resourceToken(k, { client_id: undefined }),
    ]) {
      expect(await refusal(a.verifyResourceToken(token))).toMatchObject({
        code: 'invalid_token',
        status: 401,
      });
    }
    expect(
      await refusal(
        a.verifyResourceToken(await resourceToken(k, { iat: now - 600, exp: now - 60 })),
      ),
    ).toMatchObject({ code: 'expired_token' });
    // And the other way round: a resource token is no session token.
    expect(await refusal(a.verifyAccessToken(forA))).toMatchObject({ code: 'invalid_token' });
  });

  it('refuses a token without a scope the route needs: 403 insufficient_scope with the RFC 6750 challenge', async () => {
    const k = await key('k1');
    const gatehouse = createGatehouse({
      authUrl: AUTH,
      projectId: PROJECT,
      projectKey: 'pk_test',
      resource: MCP,
      fetch: fakeFetch([k]),
    });
    const err = await refusal(
      gatehouse.verifyResourceToken(await resourceToken(k, { scope: 'mcp:read' }), {
        scopes: ['mcp:tools'],
      }),
    );
    expect(err).toMatchObject({
      code: 'insufficient_scope',
      status: 403,
      scope: 'mcp:tools',
      message: 'The access token lacks the scope mcp:tools.',
    });
    expect(problemFor(err)).toEqual({
      status: 403,
      body: {
        type: 'https://gatehouse.dev/problems/forbidden',
        title: 'Forbidden',
        status: 403,
        detail: 'The access token lacks the scope mcp:tools.',
      },
      headers: {
        'content-type': 'application/problem+json',
        'cache-control': 'no-store',
        'www-authenticate': 'Bearer error="insufficient_scope", scope="mcp:tools"',
      },
    });
    const none = await refusal(
      gatehouse.verifyResourceToken(await resourceToken(k, { scope: undefined }), {
        scopes: ['mcp:tools'],
      }),
    );
    expect(none.code).toBe('insufficient_scope');
  });

  it('needs the resource option, and refuses one that is not a URL', async () => {
    const k = await key('k1');
    const plain = createGatehouse({
      authUrl: AUTH,
      projectId: PROJECT,
      projectKey: 'pk_test',
      fetch: fakeFetch([k]),
    });
    await expect(plain.verifyResourceToken(await resourceToken(k))).rejects.toThrow(TypeError);
    expect(() =>
      createGatehouse({
        authUrl: AUTH,
        projectId: PROJECT,
        projectKey: 'pk_test',
        resource: 'mcp',
      }),
    ).toThrow('resource must be an absolute URL');
  });
});
