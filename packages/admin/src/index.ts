export {
  createAdminClient,
  type AdminClient,
  type AdminClientOptions,
  type AdminPaths,
  type ListItem,
  type ListParams,
  type ListPath,
} from './client';
export { adminSession, type AdminSession, type AdminSessionOptions } from './session';
// Its own error class (no dependency on @gatehouse/js); `instanceof GatehouseError` holds for errors of both packages.
export { GatehouseError } from './errors';
export type { components, operations } from './schema';
