// The auth runtime's OpenAPI types, in one copy: @gatehouse/js's schema, generated from the
// document the auth runtime serves (`npm run console:api`). Types only: nothing is bundled.
export type * from '../../../../packages/js/src/schema';
