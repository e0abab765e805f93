// The sign-up password rules live in @gatehouse/identity: the control plane's user creation applies them too.
export { PASSWORD_MAX, PASSWORD_MIN, PasswordPolicy } from '@gatehouse/identity';
