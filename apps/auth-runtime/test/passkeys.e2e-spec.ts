import { AuditEvent, MfaFactor, OutboxEvent, Passkey, Session, User } from '@gatehouse/entities';
import {
  APP_ORIGIN,
  cookiesOf,
  expectProblem,
  nextIp,
  seedTenant,
  signUpUser,
  startTestApp,
  type SeededTenant,
  type SignedUpUser,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';
import { cbor, FLAGS, SoftAuthenticator, type AssertionJSON } from './support/soft-authenticator';

const RP_ID = 'app.example.com';

describe('passkeys (WebAuthn) on the API', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  const key = () => tenant.projectKey;

  const post = (path: string, body: object, token?: string, projectKey = key()) => {
    const req = t
      .http()
      .post(path)
      .set('X-Service-Project-Key', projectKey)
      .set('X-Forwarded-For', nextIp());
    return (token ? req.set('Authorization', `Bearer ${token}`) : req).send(body);
  };

  /** Registers `auth` for `user` through begin + complete; returns the complete response. */
  async function register(user: SignedUpUser, auth: SoftAuthenticator, projectKey = key()) {
    const begin = await post('/v1/auth/passkey/register/begin', {}, user.accessToken, projectKey);
    expect(begin.status).toBe(200);
    return post(
      '/v1/auth/passkey/register/complete',
      { credential: auth.attest(begin.body) },
      user.accessToken,
      projectKey,
    );
  }

  async function requestOptions(body: object = {}, projectKey = key()) {
    const begin = await post('/v1/auth/passkey/authenticate/begin', body, undefined, projectKey);
    expect(begin.status).toBe(200);
    return begin.body as {
      challenge: string;
      allowCredentials: { id: string; type: string; transports: string[] }[];
    };
  }

  const complete = (credential: unknown, projectKey = key()) =>
    post(
      '/v1/auth/passkey/authenticate/complete',
      { credential: credential as object },
      undefined,
      projectKey,
    );

  /** Reasons of the `user.sign_in_failed` events, oldest first. */
  async function failureReasons(): Promise<unknown[]> {
    const events = await t.dataSource
      .getRepository(AuditEvent)
      .find({ where: { action: 'user.sign_in_failed' }, order: { createdAt: 'ASC' } });
    // docs/api-contract.md §13's word for each, with the cause beside it.
    expect(events.map((e) => e.metadata.reason)).toEqual(events.map(() => 'invalid_credentials'));
    return events.map((e) => e.metadata.error);
  }

  async function userWithPasskey(email: string) {
    const user = await signUpUser(t, key(), email);
    const auth = new SoftAuthenticator(APP_ORIGIN, RP_ID);
    const res = await register(user, auth);
    expect(res.status).toBe(201);
    return { user, auth, passkeyId: res.body.id as string };
  }

  beforeAll(async () => {
    t = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
  });
  afterAll(() => t.close());

  it('registers a passkey (201, audit + outbox passkey.registered) and lists it', async () => {
    const user = await signUpUser(t, key(), 'ada@example.com');
    const begin = await post('/v1/auth/passkey/register/begin', {}, user.accessToken);
    expect(begin.status).toBe(200);
    expect(begin.body).toEqual(
      expect.objectContaining({
        rp: { id: RP_ID, name: 'Acme App' },
        user: {
          id: Buffer.from(user.id).toString('base64url'),
          name: 'ada@example.com',
          displayName: 'ada@example.com',
        },
        challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        pubKeyCredParams: expect.arrayContaining([{ alg: -7, type: 'public-key' }]),
        timeout: 300000,
        attestation: 'none',
        excludeCredentials: [],
        authenticatorSelection: expect.objectContaining({
          residentKey: 'required',
          userVerification: 'required',
        }),
      }),
    );

    const auth = new SoftAuthenticator(APP_ORIGIN, RP_ID);
    const done = await post(
      '/v1/auth/passkey/register/complete',
      { credential: auth.attest(begin.body), name: 'Laptop' },
      user.accessToken,
    );
    expect(done.status).toBe(201);
    expect(done.body).toEqual({
      id: expect.any(String),
      name: 'Laptop',
      created_at: expect.any(String),
      last_used_at: null,
      device_type: 'singleDevice',
      backed_up: false,
    });

    const row = await t.dataSource.getRepository(Passkey).findOneByOrFail({ id: done.body.id });
    expect(row).toMatchObject({
      userId: user.id,
      projectId: tenant.project.id,
      credentialId: auth.id,
      counter: '0',
      transports: ['internal'],
    });
    expect(row.publicKey.length).toBeGreaterThan(60);
    const audit = await t.dataSource
      .getRepository(AuditEvent)
      .findOneByOrFail({ action: 'passkey.registered' });
    expect(audit).toMatchObject({
      actorId: user.id,
      resourceType: 'passkey',
      resourceId: done.body.id,
      projectId: tenant.project.id,
    });
    const outbox = await t.dataSource
      .getRepository(OutboxEvent)
      .findOneByOrFail({ type: 'passkey.registered' });
    expect(outbox.payload).toEqual({
      passkey: {
        id: done.body.id,
        user_id: user.id,
        name: 'Laptop',
        device_type: 'singleDevice',
        backed_up: false,
      },
    });

    const list = await t
      .http()
      .get('/v1/auth/passkeys')
      .set('X-Service-Project-Key', key())
      .set('Authorization', `Bearer ${user.accessToken}`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ passkeys: [done.body] });

    const again = await post('/v1/auth/passkey/register/begin', {}, user.accessToken);
    expect(again.body.excludeCredentials).toEqual([
      { id: auth.id, type: 'public-key', transports: ['internal'] },
    ]);
  });

  it('signs in with a passkey by email and with a discoverable credential, setting both cookies', async () => {
    const { user, auth, passkeyId } = await userWithPasskey('ada@example.com');
    const options = await requestOptions({ email: 'ADA@Example.com' });
    expect(options).toEqual({
      rpId: RP_ID,
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      allowCredentials: [{ id: auth.id, type: 'public-key', transports: ['internal'] }],
      timeout: 300000,
      userVerification: 'required',
    });

    const res = await complete(auth.assert(options));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: { id: user.id, email: 'ada@example.com' },
      session: { id: expect.any(String), access_token: expect.any(String) },
    });
    const cookies = cookiesOf(res);
    expect(cookies.service_session.value).toBe(res.body.session.access_token);
    expect(cookies.service_refresh_token.attributes).toEqual(
      expect.arrayContaining(['Path=/v1/auth', 'HttpOnly', 'SameSite=Strict']),
    );
    const session = await t.dataSource
      .getRepository(Session)
      .findOneByOrFail({ id: res.body.session.id });
    expect(session.authMethod).toBe('passkey');
    const me = await t
      .http()
      .get('/v1/auth/me')
      .set('X-Service-Project-Key', key())
      .set('Authorization', `Bearer ${res.body.session.access_token}`);
    expect(me.body.user).toEqual({
      id: user.id,
      email: 'ada@example.com',
      is_admin: false,
      mfa_factors: ['passkey'],
    });
    const row = await t.dataSource.getRepository(Passkey).findOneByOrFail({ id: passkeyId });
    expect(row.counter).toBe('1');
    expect(row.lastUsedAt).toBeInstanceOf(Date);

    const discoverable = await requestOptions({});
    expect(discoverable.allowCredentials).toEqual([]);
    const res2 = await complete(auth.assert(discoverable));
    expect(res2.status).toBe(200);
    expect(res2.body.user).toEqual({ id: user.id, email: 'ada@example.com' });
    expect(
      (await t.dataSource.getRepository(Passkey).findOneByOrFail({ id: passkeyId })).counter,
    ).toBe('2');
  });

  it('answers an unknown email with options of the same shape, stable across calls', async () => {
    await userWithPasskey('known@example.com');
    await signUpUser(t, key(), 'nopasskey@example.com');
    const known = await requestOptions({ email: 'known@example.com' });
    const unknown1 = await requestOptions({ email: 'ghost@example.com' });
    const unknown2 = await requestOptions({ email: 'Ghost@Example.com' });
    const without = await requestOptions({ email: 'nopasskey@example.com' });
    for (const o of [unknown1, without]) {
      expect(Object.keys(o).sort()).toEqual(Object.keys(known).sort());
      expect(o.allowCredentials).toHaveLength(1);
      expect(Object.keys(o.allowCredentials[0]).sort()).toEqual(
        Object.keys(known.allowCredentials[0]).sort(),
      );
      expect(o.allowCredentials[0].id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    }
    expect(unknown2.allowCredentials).toEqual(unknown1.allowCredentials);
    expect(unknown2.challenge).not.toBe(unknown1.challenge);
    expect(without.allowCredentials[0].id).not.toBe(unknown1.allowCredentials[0].id);
    expectProblem(
      await post('/v1/auth/passkey/authenticate/begin', { email: 'not an email' }),
      400,
      'validation-error',
      '/v1/auth/passkey/authenticate/begin',
    );
    expectProblem(
      await post('/v1/auth/passkey/authenticate/begin', { email: 'a@b.co', extra: 1 }),
      400,
      'validation-error',
    );
  });

  it('refuses a replayed assertion, also when both copies race', async () => {
    const { auth, passkeyId } = await userWithPasskey('ada@example.com');
    const assertion = auth.assert(await requestOptions({}));
    expect((await complete(assertion)).status).toBe(200);
    const replay = await complete(assertion);
    expectProblem(replay, 401, 'invalid-credentials', '/v1/auth/passkey/authenticate/complete');

    const racing = auth.assert(await requestOptions({}));
    const results = await Promise.all([complete(racing), complete(racing), complete(racing)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
    expect(
      (await t.dataSource.getRepository(Passkey).findOneByOrFail({ id: passkeyId })).counter,
    ).toBe('2');
    expect(await t.dataSource.getRepository(Session).countBy({ authMethod: 'passkey' })).toBe(2);
    const failed = await t.dataSource
      .getRepository(AuditEvent)
      .findBy({ action: 'user.sign_in_failed' });
    expect(failed).toHaveLength(3);
    expect(failed[0].metadata).toEqual({
      method: 'passkey',
      reason: 'invalid_credentials',
      error: 'challenge',
    });
  });

  it('refuses a wrong origin, another RP ID, a missing user verification, a tampered clientDataJSON and an expired challenge', async () => {
    const { auth } = await userWithPasskey('ada@example.com');
    const cases: AssertionJSON[] = [
      auth.assert(await requestOptions({}), { origin: 'https://evil.example.net' }),
      auth.assert(await requestOptions({}), { rpId: 'evil.example.net' }),
      auth.assert(await requestOptions({}), { flags: FLAGS.UP }),
      auth.assert(await requestOptions({}), { type: 'webauthn.create' }),
    ];
    const tampered = auth.assert(await requestOptions({}));
    const clientData = JSON.parse(
      Buffer.from(tampered.response.clientDataJSON, 'base64url').toString(),
    ) as Record<string, unknown>;
    tampered.response.clientDataJSON = Buffer.from(
      JSON.stringify({ ...clientData, crossOrigin: true }),
    ).toString('base64url');
    cases.push(tampered);
    for (const c of cases)
      expectProblem(
        await complete(c),
        401,
        'invalid-credentials',
        '/v1/auth/passkey/authenticate/complete',
      );

    const late = await requestOptions({});
    t.clock.advance(5 * 60_000 + 1000);
    expectProblem(await complete(auth.assert(late)), 401, 'invalid-credentials');
    expect(await t.dataSource.getRepository(Session).countBy({ authMethod: 'passkey' })).toBe(0);
    expect(await failureReasons()).toEqual([...Array(5).fill('invalid_assertion'), 'challenge']);
  });

  it("refuses another user's credential, a foreign user handle, a credential of another project and a counter regression", async () => {
    const ada = await userWithPasskey('ada@example.com');
    const bob = await userWithPasskey('bob@example.com');

    // Bob's authenticator claiming to be Ada (user handle of Ada) is refused.
    const foreignHandle = bob.auth.assert(await requestOptions({}), {
      userHandle: Buffer.from(ada.user.id).toString('base64url'),
    });
    expectProblem(await complete(foreignHandle), 401, 'invalid-credentials');
    // Ada's credential id with a signature from Bob's key is refused.
    const forged = bob.auth.assert(await requestOptions({ email: 'ada@example.com' }), {
      userHandle: null,
    });
    forged.id = ada.auth.id;
    forged.rawId = ada.auth.id;
    expectProblem(await complete(forged), 401, 'invalid-credentials');

    // A credential registered in another project does not sign in here.
    const other = await seedTenant(t.app, 'Other');
    const carol = await signUpUser(t, other.projectKey, 'carol@example.com');
    const carolAuth = new SoftAuthenticator(APP_ORIGIN, RP_ID);
    expect((await register(carol, carolAuth, other.projectKey)).status).toBe(201);
    expectProblem(
      await complete(carolAuth.assert(await requestOptions({}))),
      401,
      'invalid-credentials',
    );
    expect(
      (
        await complete(
          carolAuth.assert(await requestOptions({}, other.projectKey)),
          other.projectKey,
        )
      ).status,
    ).toBe(200);

    // Counter: 1 after one sign-in; an assertion that reports 1 again (or less) is refused.
    expect((await complete(ada.auth.assert(await requestOptions({})))).status).toBe(200);
    expectProblem(
      await complete(ada.auth.assert(await requestOptions({}), { counter: 1 })),
      401,
      'invalid-credentials',
    );
    expectProblem(
      await complete(ada.auth.assert(await requestOptions({}), { counter: 0 })),
      401,
      'invalid-credentials',
    );
    expect(
      (await t.dataSource.getRepository(Passkey).findOneByOrFail({ id: ada.passkeyId })).counter,
    ).toBe('1');
    expect((await complete(ada.auth.assert(await requestOptions({}), { counter: 7 }))).status).toBe(
      200,
    );
    expect(await failureReasons()).toEqual([
      'user_handle_mismatch',
      'invalid_assertion',
      'unknown_credential',
      'invalid_assertion',
      'invalid_assertion',
    ]);

    // Two assertions carrying the same counter, on two challenges, racing: only one may pass.
    const [o1, o2] = [await requestOptions({}), await requestOptions({})];
    const raced = await Promise.all([
      complete(ada.auth.assert(o1, { counter: 9 })),
      complete(ada.auth.assert(o2, { counter: 9 })),
    ]);
    expect(raced.map((r) => r.status).sort()).toEqual([200, 401]);
    expect(
      (await t.dataSource.getRepository(Passkey).findOneByOrFail({ id: ada.passkeyId })).counter,
    ).toBe('9');
  });

  it('answers an assertion with members missing or of the wrong JSON type 400 on their dotted paths, consuming and recording nothing', async () => {
    const { auth } = await userWithPasskey('ada@example.com');
    const good = auth.assert(await requestOptions({}));
    const r = good.response;
    const malformed: [unknown, Record<string, string[]>][] = [
      [
        {},
        {
          'credential.id': ['is required (a string)'],
          'credential.rawId': ['is required (a string)'],
          'credential.type': ['is required (a string)'],
          'credential.response': ['is required (an object)'],
        },
      ],
      [
        { id: good.id },
        {
          'credential.rawId': ['is required (a string)'],
          'credential.type': ['is required (a string)'],
          'credential.response': ['is required (an object)'],
        },
      ],
      [{ ...good, id: 42 }, { 'credential.id': ['must be a string'] }],
      [{ ...good, rawId: null }, { 'credential.rawId': ['must be a string'] }],
      [{ ...good, type: ['public-key'] }, { 'credential.type': ['must be a string'] }],
      [{ ...good, response: null }, { 'credential.response': ['must be an object'] }],
      [{ ...good, response: [] }, { 'credential.response': ['must be an object'] }],
      [{ ...good, response: r.clientDataJSON }, { 'credential.response': ['must be an object'] }],
      [
        { ...good, response: { ...r, clientDataJSON: { challenge: 'x' } } },
        { 'credential.response.clientDataJSON': ['must be a string'] },
      ],
      [
        { ...good, response: { ...r, authenticatorData: 1 } },
        { 'credential.response.authenticatorData': ['must be a string'] },
      ],
      [
        { ...good, response: { ...r, signature: [r.signature] } },
        { 'credential.response.signature': ['must be a string'] },
      ],
      [
        {
          ...good,
          response: { clientDataJSON: r.clientDataJSON, authenticatorData: r.authenticatorData },
        },
        { 'credential.response.signature': ['is required (a string)'] },
      ],
      [
        { ...good, response: { ...r, userHandle: 12 } },
        { 'credential.response.userHandle': ['must be a string or null'] },
      ],
      [
        { ...good, clientExtensionResults: [] },
        { 'credential.clientExtensionResults': ['must be an object'] },
      ],
      [
        { ...good, authenticatorAttachment: true },
        { 'credential.authenticatorAttachment': ['must be a string or null'] },
      ],
    ];
    for (const [credential, errors] of malformed) {
      const body = expectProblem(
        await complete(credential),
        400,
        'validation-error',
        '/v1/auth/passkey/authenticate/complete',
      );
      expect({ credential, errors: body.errors }).toEqual({ credential, errors });
    }
    for (const credential of ['string', [good], null, 42]) {
      const body = expectProblem(await complete(credential), 400, 'validation-error');
      expect(body.errors).toEqual({ credential: expect.any(Array) });
    }
    expectProblem(
      await post('/v1/auth/passkey/authenticate/complete', {}),
      400,
      'validation-error',
    );
    // A malformed body is not a sign-in attempt: no event, and the challenge is still unspent.
    expect(await failureReasons()).toEqual([]);
    const signedIn = await complete({
      ...good,
      clientExtensionResults: {},
      authenticatorAttachment: null,
      response: { ...r, userHandle: r.userHandle ?? null },
    });
    expect(signedIn.status).toBe(200);
  });

  it('refuses well-typed assertions that are not valid responses with 401, never a 500', async () => {
    const { auth } = await userWithPasskey('ada@example.com');
    const fresh = async () => auth.assert(await requestOptions({}));
    const refused: ((g: AssertionJSON) => unknown)[] = [
      (g) => ({ ...g, type: 'password' }),
      (g) => ({ ...g, rawId: 'not base64url!' }),
      (g) => ({ ...g, id: '' }),
      (g) => ({
        ...g,
        response: { ...g.response, clientDataJSON: Buffer.from('not json').toString('base64url') },
      }),
      (g) => ({
        ...g,
        response: { ...g.response, clientDataJSON: Buffer.from('[1,2]').toString('base64url') },
      }),
      (g) => ({
        ...g,
        response: {
          ...g.response,
          clientDataJSON: Buffer.from('{"challenge":{"$gt":""}}').toString('base64url'),
        },
      }),
      (g) => ({ ...g, response: { ...g.response, authenticatorData: 'AA' } }),
      (g) => ({ ...g, response: { ...g.response, signature: '' } }),
      (g) => ({ ...g, response: { ...g.response, userHandle: '!!' } }),
      (g) => ({ ...g, response: { ...g.response, clientDataJSON: 'x'.repeat(20_000) } }),
    ];
    for (const mutate of refused)
      expectProblem(
        await complete(mutate(await fresh())),
        401,
        'invalid-credentials',
        '/v1/auth/passkey/authenticate/complete',
      );
    expect(await failureReasons()).toHaveLength(refused.length);
    expect(await t.dataSource.getRepository(Session).countBy({ authMethod: 'passkey' })).toBe(0);
  });

  it('answers a null email at authenticate/begin 400 on email, like any other value that is not an email', async () => {
    for (const email of [null, 42, ['ada@example.com'], { $ne: '' }, '']) {
      const res = await post('/v1/auth/passkey/authenticate/begin', { email });
      const body = expectProblem(
        res,
        400,
        'validation-error',
        '/v1/auth/passkey/authenticate/begin',
      );
      expect({ email, errors: Object.keys(body.errors as object) }).toEqual({
        email,
        errors: ['email'],
      });
    }
    expect((await post('/v1/auth/passkey/authenticate/begin', {})).status).toBe(200);
  });

  it('refuses malformed CBOR, certificate attestations, wrong origins, replays and duplicate credentials at registration (400)', async () => {
    const user = await signUpUser(t, key(), 'ada@example.com');
    const begin = async () =>
      (await post('/v1/auth/passkey/register/begin', {}, user.accessToken)).body as {
        challenge: string;
        user: { id: string };
      };
    const completeReg = (credential: unknown) =>
      post(
        '/v1/auth/passkey/register/complete',
        { credential: credential as object },
        user.accessToken,
      );
    const WHY = {
      shape: /^must be a WebAuthn attestation response/,
      challenge: /^does not answer a current registration challenge/,
      format: /^has an unreadable or unsupported attestation/,
      verification: /^could not be verified/,
      duplicate: /^is already registered$/,
    };
    const refused = async (credential: unknown, why: RegExp) => {
      const body = expectProblem(
        await completeReg(credential),
        400,
        'validation-error',
        '/v1/auth/passkey/register/complete',
      );
      expect(body.errors).toEqual({ credential: [expect.stringMatching(why)] });
    };

    const auth = new SoftAuthenticator(APP_ORIGIN, RP_ID);
    const garbage = auth.attest(await begin());
    garbage.response.attestationObject = Buffer.from([
      0xa3, 0x63, 0x66, 0x6d, 0x74, 0xff, 0x00, 0x01,
    ]).toString('base64url');
    await refused(garbage, WHY.format);
    const truncated = auth.attest(await begin());
    truncated.response.attestationObject = truncated.response.attestationObject.slice(0, 40);
    // The CBOR decoder may accept a short byte string; the authenticator data parser then refuses it.
    await refused(
      truncated,
      /^(has an unreadable or unsupported attestation|could not be verified)/,
    );
    const withCert = auth.attest(await begin());
    withCert.response.attestationObject = cbor(
      new Map<Parameters<typeof cbor>[0], Parameters<typeof cbor>[0]>([
        ['fmt', 'packed'],
        [
          'attStmt',
          new Map<Parameters<typeof cbor>[0], Parameters<typeof cbor>[0]>([
            ['alg', -7],
            ['sig', Buffer.alloc(70)],
            ['x5c', [Buffer.alloc(300)]],
          ]),
        ],
        ['authData', Buffer.alloc(37)],
      ]),
    ).toString('base64url');
    await refused(withCert, WHY.format);
    await refused(
      auth.attest(await begin(), { origin: 'https://evil.example.net' }),
      WHY.verification,
    );
    await refused(auth.attest(await begin(), { rpId: 'evil.example.net' }), WHY.verification);
    await refused(auth.attest(await begin(), { flags: FLAGS.UP | FLAGS.AT }), WHY.verification);
    await refused(auth.attest(await begin(), { type: 'webauthn.get' }), WHY.verification);
    const tampered = auth.attest(await begin());
    tampered.id = 'AAAAAAAAAAAAAAAAAAAAAA';
    tampered.rawId = tampered.id;
    await refused(tampered, WHY.verification);
    await refused({ id: 'x', type: 'public-key' }, WHY.shape);
    await refused({ ...auth.attest(await begin()), type: 'password' }, WHY.shape);

    const late = await begin();
    t.clock.advance(5 * 60_000 + 1000);
    await refused(auth.attest(late), WHY.challenge);
    t.clock.reset();

    const ok = auth.attest(await begin());
    expect((await completeReg(ok)).status).toBe(201);
    await refused(ok, WHY.challenge);
    await refused(auth.attest(await begin()), WHY.duplicate);

    // The same credential id for another user is refused too.
    const bob = await signUpUser(t, key(), 'bob@example.com');
    const copy = new SoftAuthenticator(APP_ORIGIN, RP_ID, auth.credentialId);
    const res = await register(bob, copy);
    expectProblem(res, 400, 'validation-error');
    expect(res.body.errors).toEqual({ credential: ['is already registered'] });

    // A challenge issued to Bob's session does not complete in Ada's.
    const bobBegin = await post('/v1/auth/passkey/register/begin', {}, bob.accessToken);
    await refused(new SoftAuthenticator(APP_ORIGIN, RP_ID).attest(bobBegin.body), WHY.challenge);
    expect(await t.dataSource.getRepository(Passkey).count()).toBe(1);
    expect(
      await t.dataSource.getRepository(AuditEvent).countBy({ action: 'passkey.registered' }),
    ).toBe(1);
  });

  it('requires a session to register and applies the cookie CSRF rule', async () => {
    expectProblem(
      await post('/v1/auth/passkey/register/begin', {}),
      401,
      'unauthenticated',
      '/v1/auth/passkey/register/begin',
    );
    expectProblem(
      await post('/v1/auth/passkey/register/complete', { credential: {} }),
      401,
      'unauthenticated',
    );
    expectProblem(
      await t.http().post('/v1/auth/passkey/authenticate/begin').send({}),
      401,
      'unauthenticated',
    );
    const user = await signUpUser(t, key(), 'ada@example.com');
    const foreign = await t
      .http()
      .post('/v1/auth/passkey/register/begin')
      .set('X-Service-Project-Key', key())
      .set('Cookie', `service_session=${user.accessToken}`)
      .set('Origin', 'https://evil.example.net')
      .send({});
    expectProblem(foreign, 403, 'forbidden');
    const same = await t
      .http()
      .post('/v1/auth/passkey/register/begin')
      .set('X-Service-Project-Key', key())
      .set('Cookie', `service_session=${user.accessToken}`)
      .set('Origin', APP_ORIGIN)
      .send({});
    expect(same.status).toBe(200);
  });

  it('signs in while password sign-in is locked and satisfies MFA; a disabled user is refused', async () => {
    const { user, auth } = await userWithPasskey('ada@example.com');
    const ip = nextIp();
    for (let i = 0; i < 5; i++) {
      await t
        .http()
        .post('/v1/auth/sign-in')
        .set('X-Service-Project-Key', key())
        .set('X-Forwarded-For', nextIp())
        .send({ identifier: 'ada@example.com', password: 'wrong password' });
    }
    const locked = await t
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', key())
      .set('X-Forwarded-For', ip)
      .send({ identifier: 'ada@example.com', password: user.password });
    expectProblem(locked, 429, 'account-locked');

    await t.dataSource.getRepository(MfaFactor).save({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      userId: user.id,
      type: 'totp',
      status: 'enabled',
      secretEncrypted: 'x',
      enabledAt: new Date(),
    });
    const res = await complete(auth.assert(await requestOptions({ email: 'ada@example.com' })));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: { id: user.id, email: 'ada@example.com' },
      session: { id: expect.any(String), access_token: expect.any(String) },
    });
    expect(res.body.mfa_required).toBeUndefined();

    await t.dataSource.getRepository(User).update({ id: user.id }, { status: 'disabled' });
    expectProblem(await complete(auth.assert(await requestOptions({}))), 403, 'account-disabled');
  });

  it("lists and deletes only the caller's own passkeys", async () => {
    const ada = await userWithPasskey('ada@example.com');
    const bob = await userWithPasskey('bob@example.com');
    const del = (id: string, token: string) =>
      t
        .http()
        .delete(`/v1/auth/passkeys/${id}`)
        .set('X-Service-Project-Key', key())
        .set('Authorization', `Bearer ${token}`);
    const list = (token: string) =>
      t
        .http()
        .get('/v1/auth/passkeys')
        .set('X-Service-Project-Key', key())
        .set('Authorization', `Bearer ${token}`);

    expectProblem(
      await del(ada.passkeyId, bob.user.accessToken),
      404,
      'not-found',
      `/v1/auth/passkeys/${ada.passkeyId}`,
    );
    expectProblem(
      await del('00000000-0000-4000-8000-000000000000', ada.user.accessToken),
      404,
      'not-found',
    );
    expectProblem(await del('not-an-id', ada.user.accessToken), 404, 'not-found');
    expectProblem(
      await t.http().get('/v1/auth/passkeys').set('X-Service-Project-Key', key()),
      401,
      'unauthenticated',
    );
    expect(
      (await list(bob.user.accessToken)).body.passkeys.map((p: { id: string }) => p.id),
    ).toEqual([bob.passkeyId]);

    const removed = await del(ada.passkeyId, ada.user.accessToken);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await list(ada.user.accessToken)).body).toEqual({ passkeys: [] });
    expect((await list(bob.user.accessToken)).body.passkeys).toHaveLength(1);
    expect(
      await t.dataSource
        .getRepository(AuditEvent)
        .countBy({ action: 'passkey.deleted', resourceId: ada.passkeyId }),
    ).toBe(1);
    expectProblem(
      await complete(ada.auth.assert(await requestOptions({}))),
      401,
      'invalid-credentials',
    );
  });
});
