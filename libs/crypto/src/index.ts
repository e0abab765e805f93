/** Cryptographic building blocks with no Nest or database: sealing secrets, hashes and MACs, token codecs, key pairs. */
export { decryptSecret, decryptSecretString, encryptSecret } from './aes-gcm';
export {
  bcryptCostOf,
  exportedPasswordHash,
  hashPassword,
  makeDummyHash,
  needsRehash,
  normalizePassword,
  verifyPassword,
  type PasswordScheme,
} from './passwords';
export {
  generateSigningKey,
  peekKid,
  privateJwkOf,
  privateKeyFromPem,
  publicJwkMembers,
  publicKeyFromJwk,
  SIGNING_ALGORITHMS,
  signAccessToken,
  verifyAccessToken,
  type AccessTokenClaims,
  type GeneratedSigningKey,
  type SigningAlgorithm,
} from './signing-keys';
export {
  firebaseParametersOf,
  IMPORTED_HASH_BUDGET,
  ImportedHashError,
  importedHashOverBudget,
  parseImportedHash,
  WEAK_SCHEMES,
  type FirebaseScryptParameters,
  type ImportedScheme,
  type ParsedImportedHash,
} from './imported-hashes';
export { LowPriorityVerifier, lowPriorityVerifier } from './low-priority-verifier';
export { selfSignedCertificate, type SelfSignedCertificate } from './self-signed-certificate';
export { hmacSha256, randomDigits, randomToken, safeEqual, sha256Hex } from './tokens';
export { newSpanId, readTraceId, traceIdFrom, traceResponse } from './trace-context';
