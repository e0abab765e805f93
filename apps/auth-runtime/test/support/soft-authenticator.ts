import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/** CBOR values the authenticator emits (RFC 8949 subset: ints, byte/text strings, arrays, maps). */
type Cbor = number | string | Buffer | Cbor[] | Map<Cbor, Cbor>;

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();

export const FLAGS = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 } as const;

export interface CeremonyOverrides {
  origin?: string;
  rpId?: string;
  type?: string;
  challenge?: string;
  flags?: number;
  counter?: number;
  userHandle?: string | null;
}

export interface RegistrationJSON {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
  clientExtensionResults: Record<string, unknown>;
}

export interface AssertionJSON {
  id: string;
  rawId: string;
  type: 'public-key';
  response: {
    clientDataJSON: string;
    authenticatorData: string;
    signature: string;
    userHandle?: string;
  };
  clientExtensionResults: Record<string, unknown>;
}

/**
 * A software WebAuthn authenticator (ES256, `none` attestation) for API-level tests: it builds
 * real attestation and assertion responses, and can be told to lie (origin, RP ID, flags,
 * counter, user handle) to exercise the server's checks.
 */
export class SoftAuthenticator {
  readonly credentialId: Buffer;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  counter = 0;
  /** The user handle given at registration (base64url), returned in assertions. */
  userHandle: string | undefined;

  constructor(
    readonly origin: string,
    readonly rpId: string,
    credentialId?: Buffer,
  ) {
    this.credentialId = credentialId ?? randomBytes(16);
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  private clientData(type: string, challenge: string, o: CeremonyOverrides): Buffer {
    return Buffer.from(
      JSON.stringify({
        type: o.type ?? type,
        challenge: o.challenge ?? challenge,
        origin: o.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }

  private counterBytes(n: number): Buffer {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  }

  /** Answers PublicKeyCredentialCreationOptionsJSON (from register/begin). */
  attest(
    options: { challenge: string; user: { id: string } },
    o: CeremonyOverrides = {},
  ): RegistrationJSON {
    this.userHandle = options.user.id;
    const flags = o.flags ?? FLAGS.UP | FLAGS.UV | FLAGS.AT;
    const idLen = Buffer.alloc(2);
    idLen.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      sha256(o.rpId ?? this.rpId),
      Buffer.from([flags]),
      this.counterBytes(o.counter ?? this.counter),
      Buffer.alloc(16),
      idLen,
      this.credentialId,
      this.coseKey(),
    ]);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, o)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** Answers PublicKeyCredentialRequestOptionsJSON (from authenticate/begin); the counter moves on by one. */
  assert(options: { challenge: string }, o: CeremonyOverrides = {}): AssertionJSON {
    if (o.counter === undefined) this.counter += 1;
    const authData = Buffer.concat([
      sha256(o.rpId ?? this.rpId),
      Buffer.from([o.flags ?? FLAGS.UP | FLAGS.UV]),
      this.counterBytes(o.counter ?? this.counter),
    ]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, o);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      this.privateKey,
    );
    const userHandle = o.userHandle === null ? undefined : (o.userHandle ?? this.userHandle);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(userHandle ? { userHandle } : {}),
      },
      clientExtensionResults: {},
    };
  }
}
