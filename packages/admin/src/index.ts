export { createAdminClient, type AdminClient, type AdminClientOptions, type AdminPaths, type ListItem, type ListParams, type ListPath } from './client';
export { adminSession, type AdminSession, type AdminSessionOptions } from './session';
// One error class across the SDK packages: `instanceof GatehouseError` holds for errors of both.
export { GatehouseError } from '@gatehouse/js';
export type { components, operations } from './schema';
