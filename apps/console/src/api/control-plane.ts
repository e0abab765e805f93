// The control plane's OpenAPI types, in one copy: @gatehouse/admin's schema, generated from the
// document the control plane serves (`npm run console:api`). Types only: nothing is bundled.
export type * from '../../../../packages/admin/src/schema';
