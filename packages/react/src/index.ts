export { GatehouseProvider, SignedIn, SignedOut, useGatehouse, useSession, useSignIn, useUser, type GatehouseProviderProps, type SignInStep, type UseSignIn } from './provider';
