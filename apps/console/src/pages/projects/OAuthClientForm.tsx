/** The members of an OAuth client of a project's OpenID Connect provider (docs/api-contract.md §11), with the server's field errors under each. */
import { Checkbox, NativeSelect, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import type { components } from '../../api/control-plane';
import { FormActions } from '../../ui/FormActions';
import type { DialogForm } from '../../ui/FormDialogs';
import { FormProblem } from '../../ui/FormProblem';
import { lines } from '../../ui/format';
import { useFormValues } from '../../ui/useFormValues';

type Create = components['schemas']['CreateOAuthClientDto'];
type Client = components['schemas']['OAuthClientResponse'];
export type GrantType = NonNullable<Create['grant_types']>[number];
export type Scope = NonNullable<Create['scopes']>[number];
export type AuthMethod = NonNullable<Create['token_endpoint_auth_method']>;
export type IdTokenAlg = NonNullable<Create['id_token_signed_response_alg']>;

export interface OAuthClientValues {
  name: string;
  redirectUris: string;
  postLogoutRedirectUris: string;
  grantTypes: GrantType[];
  authMethod: AuthMethod;
  scopes: Scope[];
  firstParty: boolean;
  idTokenAlg: IdTokenAlg;
  requirePkce: boolean;
  requirePar: boolean;
}

/** The server's defaults for a new client. */
export const NEW_CLIENT: OAuthClientValues = {
  name: '',
  redirectUris: '',
  postLogoutRedirectUris: '',
  grantTypes: ['authorization_code', 'refresh_token'],
  authMethod: 'client_secret_basic',
  scopes: ['openid', 'profile', 'email', 'offline_access'],
  firstParty: false,
  idTokenAlg: 'RS256',
  requirePkce: true,
  requirePar: false,
};

export function valuesOf(c: Client): OAuthClientValues {
  return {
    name: c.name,
    redirectUris: c.redirect_uris.join('\n'),
    postLogoutRedirectUris: c.post_logout_redirect_uris.join('\n'),
    grantTypes: c.grant_types,
    authMethod: c.token_endpoint_auth_method,
    scopes: c.scopes,
    firstParty: c.first_party,
    idTokenAlg: c.id_token_signed_response_alg,
    requirePkce: c.require_pkce,
    requirePar: c.require_pushed_authorization_requests,
  };
}

/** The create body (the PATCH body is the same without `token_endpoint_auth_method`). */
export function bodyOf(v: OAuthClientValues): Required<Create> {
  return {
    name: v.name.trim(),
    redirect_uris: lines(v.redirectUris),
    post_logout_redirect_uris: lines(v.postLogoutRedirectUris),
    grant_types: v.grantTypes,
    token_endpoint_auth_method: v.authMethod,
    scopes: v.scopes,
    first_party: v.firstParty,
    id_token_signed_response_alg: v.idTokenAlg,
    // A public client always uses PKCE.
    require_pkce: v.authMethod === 'none' ? true : v.requirePkce,
    require_pushed_authorization_requests: v.requirePar,
  };
}

export const AUTH_METHOD_LABELS: Record<AuthMethod, string> = {
  client_secret_basic: 'Confidential: secret in the Authorization header (client_secret_basic)',
  client_secret_post: 'Confidential: secret in the request body (client_secret_post)',
  none: 'Public: no secret, PKCE only (none)',
};
const AUTH_METHODS: { value: AuthMethod; description: string }[] = [
  {
    value: 'client_secret_basic',
    description: 'A server-side app that can keep a secret; what most libraries send by default',
  },
  {
    value: 'client_secret_post',
    description: 'For libraries that send the secret as a form field',
  },
  { value: 'none', description: 'A browser or native app, which cannot keep a secret' },
];
const GRANT_TYPES: { value: GrantType; label: string }[] = [
  {
    value: 'authorization_code',
    label: 'Authorization code: users sign in in the browser (with PKCE)',
  },
  { value: 'refresh_token', label: 'Refresh token: renew tokens without the user' },
  {
    value: 'client_credentials',
    label: 'Client credentials: the app acts as itself, no user (confidential clients)',
  },
];
const SCOPES: { value: Scope; label: string }[] = [
  { value: 'openid', label: 'openid: sub, sid, auth_time, acr, amr' },
  { value: 'profile', label: 'profile: preferred_username' },
  { value: 'email', label: 'email: email, email_verified' },
  { value: 'offline_access', label: 'offline_access: a refresh token' },
];
const ALGORITHMS: { value: IdTokenAlg; label: string }[] = [
  { value: 'RS256', label: 'RS256 (default; what most libraries expect)' },
  { value: 'ES256', label: 'ES256' },
];

export const CLIENT_FIELDS = [
  'name',
  'redirect_uris',
  'post_logout_redirect_uris',
  'grant_types',
  'token_endpoint_auth_method',
  'scopes',
  'first_party',
  'id_token_signed_response_alg',
  'require_pkce',
  'require_pushed_authorization_requests',
] as const;

export function OAuthClientForm({
  initial,
  editing,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: DialogForm<OAuthClientValues> & {
  initial: OAuthClientValues;
  /** An existing client: public or confidential cannot change (that is a new client). */
  editing?: boolean;
  submitLabel: string;
}) {
  const { values, set, errors, submit } = useFormValues(initial, {
    error,
    fields: CLIENT_FIELDS,
    onSubmit,
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label="Name"
          description="Shown to users on the consent screen"
          required
          maxLength={100}
          value={values.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={errors.fields.name}
        />
        <Radio.Group
          label="Client type"
          description={
            editing
              ? 'Cannot be changed: switching between public and confidential is a new client'
              : undefined
          }
          value={values.authMethod}
          onChange={(v) => set('authMethod', v)}
          error={errors.fields.token_endpoint_auth_method}
        >
          <Stack gap="xs" mt="xs">
            {AUTH_METHODS.map((m) => (
              <Radio
                key={m.value}
                value={m.value}
                label={AUTH_METHOD_LABELS[m.value]}
                description={m.description}
                disabled={editing}
              />
            ))}
          </Stack>
        </Radio.Group>
        <Textarea
          label="Redirect URIs"
          description="One per line, matched exactly: https, or http only on localhost; no wildcard or fragment. At least one for the authorization code grant"
          placeholder="https://app.example.com/callback"
          autosize
          minRows={2}
          value={values.redirectUris}
          onChange={(e) => set('redirectUris', e.currentTarget.value)}
          error={errors.fields.redirect_uris}
        />
        <Textarea
          label="Post-logout redirect URIs"
          description="One per line: where the app may send users back after signing out at the provider"
          autosize
          minRows={1}
          value={values.postLogoutRedirectUris}
          onChange={(e) => set('postLogoutRedirectUris', e.currentTarget.value)}
          error={errors.fields.post_logout_redirect_uris}
        />
        <CheckboxList
          label="Grant types"
          options={GRANT_TYPES}
          value={values.grantTypes}
          onChange={(v) => set('grantTypes', v)}
          error={errors.fields.grant_types}
        />
        <CheckboxList
          label="Scopes"
          description="What the app may ask for, and the claims each gives"
          options={SCOPES}
          value={values.scopes}
          onChange={(v) => set('scopes', v)}
          error={errors.fields.scopes}
        />
        <Checkbox
          label="First-party app"
          description="Your own app: users are not asked for consent"
          checked={values.firstParty}
          onChange={(e) => set('firstParty', e.currentTarget.checked)}
          error={errors.fields.first_party}
        />
        <NativeSelect
          label="ID token signing algorithm"
          data={ALGORITHMS}
          value={values.idTokenAlg}
          onChange={(e) => set('idTokenAlg', e.currentTarget.value as IdTokenAlg)}
          error={errors.fields.id_token_signed_response_alg}
        />
        <Checkbox
          label="Require PKCE"
          description={
            values.authMethod === 'none'
              ? 'Always, for a public client'
              : 'Turn off only for a library without PKCE: its OpenID Connect requests must then carry a nonce'
          }
          checked={values.authMethod === 'none' || values.requirePkce}
          disabled={values.authMethod === 'none'}
          onChange={(e) => set('requirePkce', e.currentTarget.checked)}
          error={errors.fields.require_pkce}
        />
        <Checkbox
          label="Require pushed authorization requests"
          description="The app must push each authorization request to the provider first (PAR, RFC 9126)"
          checked={values.requirePar}
          onChange={(e) => set('requirePar', e.currentTarget.checked)}
          error={errors.fields.require_pushed_authorization_requests}
        />
        <FormProblem error={error} fields={CLIENT_FIELDS} title="The client was not saved" />
        <FormActions onCancel={onCancel} submitLabel={submitLabel} busy={busy} />
      </Stack>
    </form>
  );
}

/** A group of checkboxes, one an option, stacked under the group's label. */
function CheckboxList<T extends string>({
  options,
  ...group
}: {
  label: string;
  description?: string;
  options: readonly { value: T; label: string }[];
  value: T[];
  onChange: (value: T[]) => void;
  error: string | undefined;
}) {
  return (
    <Checkbox.Group {...group}>
      <Stack gap="xs" mt="xs">
        {options.map((o) => (
          <Checkbox key={o.value} value={o.value} label={o.label} />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}
