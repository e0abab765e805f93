export {
  createGatehouse,
  GatehouseClient,
  type AuthState,
  type GatehouseOptions,
  type Me,
  type MfaChallenge,
  type MfaFactor,
  type Passkey,
  type SessionInfo,
  type SignedIn,
  type SignUpInput,
  type TotpSetup,
} from './client';
export { GatehouseError } from './errors';
export type { TabChannel, TabLocks, TabMessage, Tabs } from './tabs';
export type { components, paths } from './schema';
