import type { Readable } from 'node:stream';
import { auth0Lines } from './auth0';
import { clerkLines } from './clerk';
import { cognitoLines } from './cognito';
import { firebaseLines } from './firebase';
import { keycloakLines } from './keycloak';
import type { ConvertOptions, ConvertedLine } from './lines';
import { supabaseLines } from './supabase';

/** The files `users import --format` reads (docs/migration.md, "From another system"). */
export const SOURCE_FORMATS = [
  'gatehouse',
  'auth0',
  'firebase',
  'supabase',
  'clerk',
  'cognito',
  'keycloak',
] as const;
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

/** A vendor's export as our lines, streamed (`gatehouse`, our own NDJSON, needs no converter). */
export const CONVERTERS: Record<
  Exclude<SourceFormat, 'gatehouse'>,
  (input: Readable, options: ConvertOptions) => AsyncGenerator<ConvertedLine>
> = {
  auth0: auth0Lines,
  firebase: firebaseLines,
  supabase: (input, options) => supabaseLines(input, options),
  clerk: clerkLines,
  cognito: cognitoLines,
  keycloak: keycloakLines,
};
