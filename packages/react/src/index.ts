export {
  GatehouseProvider,
  SignedIn,
  SignedOut,
  useGatehouse,
  useSession,
  useSignIn,
  useUser,
  type GatehouseProviderProps,
  type UseSignIn,
} from './provider';
export { SignInFlow, type SignInSnapshot, type SignInStep } from './sign-in-flow';
export {
  OrganizationListStore,
  OrganizationSwitcher,
  useOrganization,
  useOrganizationList,
  type OrganizationListSnapshot,
  type OrganizationSwitcherProps,
  type UseOrganization,
  type UseOrganizationList,
} from './organizations';
