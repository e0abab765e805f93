export { createAdminClient, type AdminClient, type AdminClientOptions, type AdminPaths, type ListItem, type ListParams, type ListPath } from './client';
export { adminSession, type AdminSession, type AdminSessionOptions } from './session';
export { GatehouseError } from './errors';
export type { components, operations } from './schema';
