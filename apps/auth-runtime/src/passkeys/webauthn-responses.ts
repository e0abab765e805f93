import type {
  AuthenticationResponseJSON,
  AuthenticatorTransportFuture,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeAttestationObject, isoBase64URL } from '@simplewebauthn/server/helpers';
import { projectOrigins, type ResolvedProject } from '@gatehouse/identity';
import { ProblemError, type FieldErrors } from '@gatehouse/problem-details';
import { AUTHENTICATOR_TRANSPORTS } from './passkey-options.response';

const B64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const CHALLENGE = /^[A-Za-z0-9_-]{22,128}$/;
const TRANSPORTS: ReadonlySet<string> = new Set<AuthenticatorTransportFuture>(
  AUTHENTICATOR_TRANSPORTS,
);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const b64url = (v: unknown, max: number): string | null =>
  typeof v === 'string' && v.length <= max && B64URL.test(v) ? v : null;

/** Credential ids are at most 1023 bytes (WebAuthn L3). */
const MAX_ID = 1400;
const MAX_CLIENT_DATA = 16_384;
const MAX_ATTESTATION = 65_536;

/** The relying party of a project: `settings.rp_id`/`rp_name` and the project's allowed origins. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

/**
 * RP ID from `settings.rp_id`, else the host of the first allowed origin; RP name from
 * `settings.rp_name`, else the project name. Null when the project has neither. The expected
 * origins are the allowed ones, plus the auth runtime's own (`authOrigin`) when the project is an
 * OpenID Connect provider: its hosted sign-in page uses passkeys from there.
 */
export function relyingPartyOf(
  project: Pick<ResolvedProject, 'name' | 'allowedOrigins' | 'settings'>,
  authOrigin?: string,
): RelyingParty | null {
  const origins = authOrigin
    ? projectOrigins(project, authOrigin)
    : Array.isArray(project.allowedOrigins)
      ? project.allowedOrigins.filter((o) => typeof o === 'string')
      : [];
  let id = typeof project.settings.rp_id === 'string' ? project.settings.rp_id.trim() : '';
  if (!id && origins[0]) {
    try {
      id = new URL(origins[0]).hostname;
    } catch {
      id = '';
    }
  }
  if (!id) return null;
  const name =
    typeof project.settings.rp_name === 'string' && project.settings.rp_name.trim()
      ? project.settings.rp_name.trim()
      : project.name;
  return { id, name, origins };
}

/** Known transports only, deduplicated. */
export function cleanTransports(value: unknown): AuthenticatorTransportFuture[] {
  if (!Array.isArray(value)) return [];
  const out = new Set<AuthenticatorTransportFuture>();
  for (const t of value)
    if (typeof t === 'string' && TRANSPORTS.has(t)) out.add(t as AuthenticatorTransportFuture);
  return [...out];
}

/** The challenge inside a base64url `clientDataJSON`, or null when it has none of our form. */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    if (!isObject(parsed)) return null;
    const challenge = parsed.challenge;
    return typeof challenge === 'string' && CHALLENGE.test(challenge) ? challenge : null;
  } catch {
    return null;
  }
}

/** A RegistrationResponseJSON rebuilt from the fields we use, or null when its shape is wrong. */
export function parseRegistrationResponse(value: Json): RegistrationResponseJSON | null {
  const response = value.response;
  if (!isObject(response) || value.type !== 'public-key') return null;
  const id = b64url(value.id, MAX_ID);
  const rawId = b64url(value.rawId, MAX_ID);
  const clientDataJSON = b64url(response.clientDataJSON, MAX_CLIENT_DATA);
  const attestationObject = b64url(response.attestationObject, MAX_ATTESTATION);
  if (!id || !rawId || !clientDataJSON || !attestationObject) return null;
  return {
    id,
    rawId,
    type: 'public-key',
    response: {
      clientDataJSON,
      attestationObject,
      transports: cleanTransports(response.transports),
    },
    clientExtensionResults: {},
  };
}

/**
 * The JSON types of an AuthenticationResponseJSON (WebAuthn L3 §5.1, as `PublicKeyCredential.toJSON()`
 * and @simplewebauthn/browser produce it), keyed by dotted path under `path`
 * (`credential.response.signature`); empty when every member we read has its type:
 * - `id`, `rawId`, `type`, `response.clientDataJSON`, `response.authenticatorData` and
 *   `response.signature`: required strings; `response`: a required object;
 * - `response.userHandle` and `authenticatorAttachment`: a string, null or absent;
 * - `clientExtensionResults`: an object or absent.
 * Other members are ignored (the JSON form grows with WebAuthn). A wrong type or a missing member
 * is a malformed request (400 `validation-error`); a value of the right type that does not verify
 * (not base64url, `type` other than `public-key`, an unknown challenge, a bad signature) is a
 * refused assertion (401 `invalid-credentials`, docs/api-contract.md §10), judged by the service.
 */
export function authenticationResponseTypeErrors(value: unknown, path = 'credential'): FieldErrors {
  const errors: FieldErrors = {};
  if (!isObject(value)) return { [path]: ['must be an object'] };
  const requiredString = (obj: Json, key: string, at: string) => {
    if (obj[key] === undefined) errors[at] = ['is required (a string)'];
    else if (typeof obj[key] !== 'string') errors[at] = ['must be a string'];
  };
  const nullableString = (obj: Json, key: string, at: string) => {
    if (obj[key] !== undefined && obj[key] !== null && typeof obj[key] !== 'string')
      errors[at] = ['must be a string or null'];
  };
  for (const key of ['id', 'rawId', 'type']) requiredString(value, key, `${path}.${key}`);
  const response = value.response;
  if (response === undefined) errors[`${path}.response`] = ['is required (an object)'];
  else if (!isObject(response)) errors[`${path}.response`] = ['must be an object'];
  else {
    for (const key of ['clientDataJSON', 'authenticatorData', 'signature'])
      requiredString(response, key, `${path}.response.${key}`);
    nullableString(response, 'userHandle', `${path}.response.userHandle`);
  }
  if (value.clientExtensionResults !== undefined && !isObject(value.clientExtensionResults))
    errors[`${path}.clientExtensionResults`] = ['must be an object'];
  nullableString(value, 'authenticatorAttachment', `${path}.authenticatorAttachment`);
  return errors;
}

/**
 * Throws 400 `validation-error` with dotted paths when `value` is not a well-typed
 * AuthenticationResponseJSON (`authenticationResponseTypeErrors`). For every route that takes a
 * passkey assertion, before anything is consumed or counted.
 */
export function assertAuthenticationResponseJson(
  value: unknown,
  path = 'credential',
): asserts value is Json {
  const errors = authenticationResponseTypeErrors(value, path);
  if (Object.keys(errors).length > 0)
    throw ProblemError.validation(errors, 'The passkey assertion is malformed.');
}

/** An AuthenticationResponseJSON rebuilt from the fields we use, or null when its shape is wrong. */
export function parseAuthenticationResponse(value: Json): AuthenticationResponseJSON | null {
  const response = value.response;
  if (!isObject(response) || value.type !== 'public-key') return null;
  const id = b64url(value.id, MAX_ID);
  const rawId = b64url(value.rawId, MAX_ID);
  const clientDataJSON = b64url(response.clientDataJSON, MAX_CLIENT_DATA);
  const authenticatorData = b64url(response.authenticatorData, MAX_CLIENT_DATA);
  const signature = b64url(response.signature, 2048);
  if (!id || !rawId || !clientDataJSON || !authenticatorData || !signature) return null;
  let userHandle: string | undefined;
  if (
    response.userHandle !== undefined &&
    response.userHandle !== null &&
    response.userHandle !== ''
  ) {
    const handle = b64url(response.userHandle, 128);
    if (!handle) return null;
    userHandle = handle;
  }
  return {
    id,
    rawId,
    type: 'public-key',
    response: {
      clientDataJSON,
      authenticatorData,
      signature,
      ...(userHandle ? { userHandle } : {}),
    },
    clientExtensionResults: {},
  };
}

/**
 * We ask for `attestation: "none"`, so we accept the `none` format and self-attested `packed`
 * (no certificate chain). Anything with certificates is refused before verification: checking a
 * chain would make the server fetch CRLs from URLs the client chose.
 */
export function attestationFormatAccepted(attestationObject: string): boolean {
  try {
    const decoded = decodeAttestationObject(isoBase64URL.toBuffer(attestationObject));
    const fmt = decoded.get('fmt');
    const attStmt = decoded.get('attStmt');
    if (fmt === 'none') return true;
    return (
      fmt === 'packed' &&
      attStmt instanceof Map &&
      !attStmt.has('x5c') &&
      !attStmt.has('ecdaaKeyId')
    );
  } catch {
    return false;
  }
}

/** The WebAuthn user handle of a user: the UTF-8 bytes of its id (no personal data). */
export function userHandleOf(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId, 'utf8'));
}

/** Whether a base64url user handle from an assertion names this user. */
export function userHandleMatches(userHandle: string, userId: string): boolean {
  return userHandle.replace(/=+$/, '') === Buffer.from(userId, 'utf8').toString('base64url');
}
