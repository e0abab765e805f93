/** One project: its settings, social sign-in providers (write-only secrets), OpenID Connect provider and clients, roles and permissions, API keys and signing keys. */
import {
  Anchor,
  Badge,
  Box,
  Button,
  Center,
  Code,
  Group,
  Loader,
  NumberInput,
  Paper,
  PasswordInput,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import type { components } from '../../api/control-plane';
import { unwrap } from '../../api/clients';
import { fieldErrors } from '@gatehouse/ui-shared';
import { useAdminApi, useAuth } from '../../auth/AuthContext';
import { ListTable } from '../../ui/ListTable';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { CopyValue } from '../../ui/CopyValue';
import { DetailGrid } from '../../ui/DetailGrid';
import { FormProblem } from '../../ui/FormProblem';
import { formatDate, lines } from '../../ui/format';
import { PageTitle } from '../../ui/PageTitle';
import { SaveFooter } from '../../ui/SaveFooter';
import { QueryState } from '../../ui/QueryState';
import { SecretOnce } from '../../ui/SecretOnce';
import { DeleteProject } from './DeleteProject';
import RolesPanel from './RolesPanel';

type Project = components['schemas']['ProjectResponse'];
type ProvidersBody = components['schemas']['OAuthProvidersDto'];
const PROVIDERS = ['google', 'github', 'microsoft', 'apple'] as const;
type ProviderName = (typeof PROVIDERS)[number];
const PROVIDER_LABELS: Record<ProviderName, string> = {
  google: 'Google',
  github: 'GitHub',
  microsoft: 'Microsoft',
  apple: 'Apple',
};
// The OpenID Connect tab (its forms and the clients list) loads when it is first opened.
const OidcPanel = lazy(() => import('./OidcPanel'));
const TABS = ['settings', 'providers', 'oidc', 'roles', 'api-keys', 'signing-keys'] as const;
type Tab = (typeof TABS)[number];

/** The open tab in the URL (`?tab=oidc`), so a link, a reload or back opens the same tab; another tab starts on page 1. */
function useTab(): [Tab, (tab: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const current = params.get('tab');
  const tab = TABS.find((t) => t === current) ?? 'settings';
  const select = (next: string | null) =>
    setParams(next && next !== 'settings' ? { tab: next } : {}, { replace: true });
  return [tab, select];
}

export default function ProjectPage() {
  const { id = '' } = useParams();
  const api = useAdminApi();
  const [tab, setTab] = useTab();
  const { config } = useAuth();
  const project = useQuery({
    queryKey: ['project', id],
    queryFn: () => unwrap(api.GET('/v1/admin/projects/{id}', { params: { path: { id } } })),
  });
  return (
    <QueryState query={project} label="the project">
      {(p) => (
        <>
          <Anchor component={Link} to="/projects" size="sm">
            ← Projects
          </Anchor>
          <PageTitle title={p.name}>
            <DeleteProject project={p} />
          </PageTitle>
          <Box mb="md">
            <DetailGrid
              items={[
                {
                  label: 'Project ID',
                  value: <CopyValue value={p.id} label="the project ID" testId="project-id" />,
                },
                {
                  label: 'Publishable key',
                  value: (
                    <CopyValue
                      value={p.publishable_key}
                      label="the publishable key"
                      testId="publishable-key"
                    />
                  ),
                },
                {
                  label: 'Auth API URL',
                  value: (
                    <CopyValue value={config.auth_url} label="the auth API URL" testId="auth-url" />
                  ),
                },
              ]}
            />
          </Box>
          <Tabs value={tab} onChange={setTab} keepMounted={false}>
            <Tabs.List mb="md">
              <Tabs.Tab value="settings">Settings</Tabs.Tab>
              <Tabs.Tab value="providers">Social sign-in</Tabs.Tab>
              <Tabs.Tab value="oidc">OpenID Connect</Tabs.Tab>
              <Tabs.Tab value="roles">Roles and permissions</Tabs.Tab>
              <Tabs.Tab value="api-keys">API keys</Tabs.Tab>
              <Tabs.Tab value="signing-keys">Signing keys</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="settings">
              <SettingsForm project={p} />
            </Tabs.Panel>
            <Tabs.Panel value="providers">
              <ProvidersForm project={p} />
            </Tabs.Panel>
            <Tabs.Panel value="oidc">
              <Suspense
                fallback={
                  <Center py="xl" role="status" aria-label="Loading OpenID Connect">
                    <Loader size="sm" />
                  </Center>
                }
              >
                <OidcPanel project={p} />
              </Suspense>
            </Tabs.Panel>
            <Tabs.Panel value="roles">
              <RolesPanel projectId={p.id} />
            </Tabs.Panel>
            <Tabs.Panel value="api-keys">
              <ApiKeys projectId={p.id} />
            </Tabs.Panel>
            <Tabs.Panel value="signing-keys">
              <SigningKeys projectId={p.id} />
            </Tabs.Panel>
          </Tabs>
        </>
      )}
    </QueryState>
  );
}

const SETTINGS_FIELDS = [
  'name',
  'allowed_origins',
  'redirect_urls',
  'settings.default_redirect_url',
  'settings.rp_id',
  'settings.rp_name',
  'settings.access_token_ttl_seconds',
  'settings.require_email_verification',
  'settings.organizations',
] as const;

function SettingsForm({ project }: { project: Project }) {
  const api = useAdminApi();
  const client = useQueryClient();
  const s = project.settings;
  const [name, setName] = useState(project.name);
  const [origins, setOrigins] = useState(project.allowed_origins.join('\n'));
  const [redirects, setRedirects] = useState(project.redirect_urls.join('\n'));
  const [defaultRedirect, setDefaultRedirect] = useState(s.default_redirect_url ?? '');
  const [rpId, setRpId] = useState(s.rp_id ?? '');
  const [rpName, setRpName] = useState(s.rp_name ?? '');
  const [ttl, setTtl] = useState<number | string>(s.access_token_ttl_seconds);
  const [requireVerification, setRequireVerification] = useState(s.require_email_verification);
  const [userOrganizations, setUserOrganizations] = useState(
    s.organizations?.allow_user_create === true,
  );
  const save = useMutation({
    // Only what the admin changed is sent, so the audit log's `data.changes` lists those fields only.
    mutationFn: () => {
      const same = (a: unknown, b: unknown) =>
        JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
      const settings: Record<string, unknown> = Object.fromEntries(
        Object.entries({
          default_redirect_url: defaultRedirect.trim() || null,
          rp_id: rpId.trim() || null,
          rp_name: rpName.trim() || null,
          access_token_ttl_seconds: typeof ttl === 'number' ? ttl : null,
          require_email_verification: requireVerification,
        }).filter(([key, value]) => !same(value, s[key as keyof typeof s])),
      );
      if (userOrganizations !== (s.organizations?.allow_user_create === true))
        settings.organizations = { allow_user_create: userOrganizations };
      const body = {
        ...(name.trim() !== project.name && { name: name.trim() }),
        ...(!same(lines(origins), project.allowed_origins) && { allowed_origins: lines(origins) }),
        ...(!same(lines(redirects), project.redirect_urls) && { redirect_urls: lines(redirects) }),
        ...(Object.keys(settings).length > 0 && { settings }),
      };
      return unwrap(
        api.PATCH('/v1/admin/projects/{id}', { params: { path: { id: project.id } }, body }),
      );
    },
    onSuccess: (updated) => {
      client.setQueryData(['project', project.id], updated);
      void client.invalidateQueries({ queryKey: ['projects'] });
    },
  });
  const errors = fieldErrors(save.error, SETTINGS_FIELDS);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={720}>
        <TextInput
          label="Name"
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.fields.name}
        />
        <Textarea
          label="Allowed origins"
          description="One per line: the browser origins that may call the auth runtime (CORS and CSRF)"
          autosize
          minRows={2}
          value={origins}
          onChange={(e) => setOrigins(e.currentTarget.value)}
          error={errors.fields.allowed_origins}
        />
        <Textarea
          label="Redirect URLs"
          description="One per line; matched exactly"
          autosize
          minRows={2}
          value={redirects}
          onChange={(e) => setRedirects(e.currentTarget.value)}
          error={errors.fields.redirect_urls}
        />
        <TextInput
          label="Default redirect URL"
          description="One of the redirect URLs"
          value={defaultRedirect}
          onChange={(e) => setDefaultRedirect(e.currentTarget.value)}
          error={errors.fields['settings.default_redirect_url']}
        />
        <Group grow align="flex-start">
          <TextInput
            label="Passkey RP ID"
            description="Host name; default: the first origin's host"
            value={rpId}
            onChange={(e) => setRpId(e.currentTarget.value)}
            error={errors.fields['settings.rp_id']}
          />
          <TextInput
            label="Passkey RP name"
            description="Default: the project name"
            value={rpName}
            onChange={(e) => setRpName(e.currentTarget.value)}
            error={errors.fields['settings.rp_name']}
          />
        </Group>
        <NumberInput
          label="Access token lifetime (seconds)"
          description="60 to 86400"
          min={60}
          max={86400}
          allowDecimal={false}
          value={ttl}
          onChange={setTtl}
          error={errors.fields['settings.access_token_ttl_seconds']}
        />
        <Switch
          label="Require a verified email to sign in"
          checked={requireVerification}
          onChange={(e) => setRequireVerification(e.currentTarget.checked)}
          error={errors.fields['settings.require_email_verification']}
        />
        <Switch
          label="Let users create organizations"
          description="Signed-in users may create an organization and become its admin (POST /v1/auth/organizations); otherwise only admins create them"
          checked={userOrganizations}
          onChange={(e) => setUserOrganizations(e.currentTarget.checked)}
          error={errors.fields['settings.organizations']}
        />
        <SaveFooter
          error={save.error}
          fields={SETTINGS_FIELDS}
          problemTitle="The settings were not saved"
          label="Save settings"
          busy={save.isPending}
          saved={save.isSuccess && !save.isPending}
        />
      </Stack>
    </form>
  );
}

/** A provider's stored settings read as the widest shape (Apple's), every member optional. */
function storedProvider(
  stored: Project['settings']['oauth_providers'],
  name: ProviderName,
): Partial<components['schemas']['AppleProviderResponse']> | undefined {
  return stored[name];
}

interface ProviderDraft {
  enabled: boolean;
  client_id: string;
  client_secret: string;
  scopes: string;
  team_id: string;
  key_id: string;
  private_key: string;
}

function ProvidersForm({ project }: { project: Project }) {
  const api = useAdminApi();
  const client = useQueryClient();
  const stored = project.settings.oauth_providers;
  const { config } = useAuth();
  const [drafts, setDrafts] = useState<Record<ProviderName, ProviderDraft>>(
    () =>
      Object.fromEntries(
        PROVIDERS.map((name) => {
          const p = storedProvider(stored, name);
          return [
            name,
            {
              enabled: p?.enabled ?? false,
              client_id: p?.client_id ?? '',
              client_secret: '',
              scopes: (p?.scopes ?? []).join(' '),
              team_id: p?.team_id ?? '',
              key_id: p?.key_id ?? '',
              private_key: '',
            },
          ];
        }),
      ) as Record<ProviderName, ProviderDraft>,
  );
  const edit = (name: ProviderName, change: Partial<ProviderDraft>) =>
    setDrafts((d) => ({ ...d, [name]: { ...d[name], ...change } }));
  const save = useMutation({
    mutationFn: () => {
      // `settings` merges at its top level: every provider is sent; an empty secret keeps the stored one.
      const body: ProvidersBody = {};
      for (const name of PROVIDERS) {
        const d = drafts[name];
        if (!stored[name] && !d.enabled && !d.client_id) continue;
        const scopes = d.scopes.split(/[\s,]+/).filter(Boolean);
        body[name] = {
          enabled: d.enabled,
          ...(d.client_id ? { client_id: d.client_id.trim() } : {}),
          ...(d.client_secret ? { client_secret: d.client_secret } : {}),
          ...(scopes.length ? { scopes } : {}),
          ...(name === 'apple'
            ? {
                ...(d.team_id ? { team_id: d.team_id.trim() } : {}),
                ...(d.key_id ? { key_id: d.key_id.trim() } : {}),
                ...(d.private_key ? { private_key: d.private_key } : {}),
              }
            : {}),
        };
      }
      return unwrap(
        api.PATCH('/v1/admin/projects/{id}', {
          params: { path: { id: project.id } },
          body: { settings: { oauth_providers: body } },
        }),
      );
    },
    onSuccess: (updated) => {
      client.setQueryData(['project', project.id], updated);
      setDrafts(
        (d) =>
          Object.fromEntries(
            PROVIDERS.map((n) => [n, { ...d[n], client_secret: '', private_key: '' }]),
          ) as Record<ProviderName, ProviderDraft>,
      );
    },
  });
  const fieldNames = PROVIDERS.flatMap((n) =>
    ['client_id', 'client_secret', 'scopes', 'enabled', 'team_id', 'key_id', 'private_key'].map(
      (f) => `settings.oauth_providers.${n}.${f}`,
    ),
  );
  const errors = fieldErrors(save.error, fieldNames);
  const err = (name: ProviderName, field: string) =>
    errors.fields[`settings.oauth_providers.${name}.${field}`];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
      noValidate
    >
      <Stack maw={720}>
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            Redirect URI to register at each provider (the auth runtime's callback). Secrets are
            write-only: leave a secret empty to keep the stored one.
          </Text>
          <CopyValue
            value={`${config.auth_url}/v1/auth/oauth/callback`}
            label="the provider redirect URI"
            testId="oauth-callback"
          />
        </Stack>
        {PROVIDERS.map((name) => {
          const d = drafts[name];
          const p = storedProvider(stored, name);
          return (
            <Paper key={name} withBorder p="md">
              <Stack gap="sm">
                <Group justify="space-between">
                  <Title order={2} size="h4">
                    {PROVIDER_LABELS[name]}
                  </Title>
                  <Switch
                    label="Enabled"
                    checked={d.enabled}
                    onChange={(e) => edit(name, { enabled: e.currentTarget.checked })}
                    error={err(name, 'enabled')}
                  />
                </Group>
                <Group grow align="flex-start">
                  <TextInput
                    label={`${PROVIDER_LABELS[name]} client ID`}
                    value={d.client_id}
                    onChange={(e) => edit(name, { client_id: e.currentTarget.value })}
                    error={err(name, 'client_id')}
                  />
                  {name !== 'apple' && (
                    <PasswordInput
                      label={`${PROVIDER_LABELS[name]} client secret`}
                      placeholder={
                        p?.client_secret_set ? 'Stored (leave empty to keep)' : 'Not set'
                      }
                      autoComplete="off"
                      value={d.client_secret}
                      onChange={(e) => edit(name, { client_secret: e.currentTarget.value })}
                      error={err(name, 'client_secret')}
                    />
                  )}
                </Group>
                {name === 'apple' && (
                  <>
                    <Group grow align="flex-start">
                      <TextInput
                        label="Apple team ID"
                        value={d.team_id}
                        onChange={(e) => edit(name, { team_id: e.currentTarget.value })}
                        error={err(name, 'team_id')}
                      />
                      <TextInput
                        label="Apple key ID"
                        value={d.key_id}
                        onChange={(e) => edit(name, { key_id: e.currentTarget.value })}
                        error={err(name, 'key_id')}
                      />
                    </Group>
                    <Textarea
                      label="Apple private key (PKCS#8 PEM)"
                      placeholder={p?.private_key_set ? 'Stored (leave empty to keep)' : 'Not set'}
                      autosize
                      minRows={2}
                      value={d.private_key}
                      onChange={(e) => edit(name, { private_key: e.currentTarget.value })}
                      error={err(name, 'private_key')}
                    />
                  </>
                )}
                <TextInput
                  label={`${PROVIDER_LABELS[name]} scopes`}
                  description="Space-separated; empty for the defaults"
                  value={d.scopes}
                  onChange={(e) => edit(name, { scopes: e.currentTarget.value })}
                  error={err(name, 'scopes')}
                />
              </Stack>
            </Paper>
          );
        })}
        <SaveFooter
          error={save.error}
          fields={fieldNames}
          problemTitle="The providers were not saved"
          label="Save providers"
          busy={save.isPending}
          saved={save.isSuccess && !save.isPending}
        />
      </Stack>
    </form>
  );
}

function ApiKeys({ projectId }: { projectId: string }) {
  const api = useAdminApi();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const keys = useQuery({
    queryKey: ['api-keys', projectId],
    queryFn: () =>
      unwrap(api.GET('/v1/admin/projects/{id}/api-keys', { params: { path: { id: projectId } } })),
  });
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/admin/projects/{id}/api-keys', {
          params: { path: { id: projectId } },
          body: { name: name.trim() },
        }),
      ),
    onSuccess: async () => {
      setName('');
      await client.invalidateQueries({ queryKey: ['api-keys', projectId] });
    },
  });
  const revoke = async (keyId: string) => {
    await unwrap(
      api.DELETE('/v1/admin/projects/{id}/api-keys/{keyId}', {
        params: { path: { id: projectId, keyId } },
      }),
    );
    await client.invalidateQueries({ queryKey: ['api-keys', projectId] });
  };
  const errors = fieldErrors(create.error, ['name']);
  return (
    <Stack>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
        noValidate
      >
        <Group align="flex-end">
          <TextInput
            label="New API key name"
            placeholder="e.g. backend"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.fields.name}
          />
          <Button type="submit" loading={create.isPending}>
            Create API key
          </Button>
        </Group>
      </form>
      <FormProblem error={create.error} fields={['name']} title="The key was not created" />
      {create.data && (
        <SecretOnce
          label={`API key “${create.data.name}”`}
          secret={create.data.secret}
          onDone={() => create.reset()}
        />
      )}
      <QueryState
        query={keys}
        label="API keys"
        list
        isEmpty={(d) => d.api_keys.length === 0}
        empty="No API keys: server-side code uses one instead of the publishable key."
      >
        {(data) => (
          <ListTable
            minWidth={560}
            striped
            columns={['Name', 'Prefix', 'Created', 'Last used']}
            actions
          >
            {data.api_keys.map((k) => (
              <Table.Tr key={k.id}>
                <Table.Td>{k.name}</Table.Td>
                <Table.Td>
                  <Code>{k.key_prefix}…</Code>
                </Table.Td>
                <Table.Td>{formatDate(k.created_at)}</Table.Td>
                <Table.Td>{formatDate(k.last_used_at)}</Table.Td>
                <Table.Td>
                  <ConfirmButton
                    label="Revoke"
                    aria-label={`Revoke API key ${k.name}`}
                    title="Revoke this API key?"
                    message={`Requests made with “${k.name}” will be refused at once. This cannot be undone.`}
                    confirmLabel="Revoke key"
                    onConfirm={() => revoke(k.id)}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </QueryState>
    </Stack>
  );
}

const KEY_COLORS: Record<string, string> = {
  active: 'teal.9',
  retiring: 'yellow.4',
  retired: 'gray.7',
  revoked: 'red.9',
};

function SigningKeys({ projectId }: { projectId: string }) {
  const api = useAdminApi();
  const client = useQueryClient();
  const keys = useQuery({
    queryKey: ['signing-keys', projectId],
    queryFn: () =>
      unwrap(
        api.GET('/v1/admin/projects/{id}/signing-keys', { params: { path: { id: projectId } } }),
      ),
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['signing-keys', projectId] });
  const rotate = async () => {
    await unwrap(
      api.POST('/v1/admin/projects/{id}/signing-keys/rotate', {
        params: { path: { id: projectId } },
        body: {},
      }),
    );
    await refresh();
  };
  const revoke = async (keyId: string) => {
    await unwrap(
      api.POST('/v1/admin/projects/{id}/signing-keys/{key_id}/revoke', {
        params: { path: { id: projectId, key_id: keyId } },
        body: {},
      }),
    );
    await refresh();
  };
  return (
    <Stack>
      <Group>
        <ConfirmButton
          label="Rotate signing key"
          color="indigo"
          variant="filled"
          size="sm"
          title="Rotate the signing key?"
          message="A new key signs every token from now on. The current key keeps verifying tokens it signed until the longest access-token lifetime has passed."
          confirmLabel="Rotate"
          onConfirm={rotate}
        />
      </Group>
      <QueryState
        query={keys}
        label="signing keys"
        list
        isEmpty={(d) => d.signing_keys.length === 0}
      >
        {(data) => (
          <ListTable
            minWidth={560}
            striped
            columns={['Key ID', 'Algorithm', 'Status', 'Created']}
            actions
          >
            {data.signing_keys.map((k) => (
              <Table.Tr key={k.id} data-testid={`signing-key-${k.status}`}>
                <Table.Td>
                  <CopyValue value={k.id} label={`the signing key ID ${k.id}`} nowrap />
                </Table.Td>
                <Table.Td>{k.algorithm}</Table.Td>
                <Table.Td>
                  <Badge color={KEY_COLORS[k.status] ?? 'gray'} variant="filled">
                    {k.status}
                  </Badge>
                </Table.Td>
                <Table.Td>{formatDate(k.created_at)}</Table.Td>
                <Table.Td>
                  {k.status !== 'revoked' && k.status !== 'active' && (
                    <ConfirmButton
                      label="Revoke"
                      aria-label={`Revoke signing key ${k.id}`}
                      title="Revoke this signing key?"
                      message="Tokens it signed are refused at once, even those not yet expired."
                      confirmLabel="Revoke key"
                      onConfirm={() => revoke(k.id)}
                    />
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </QueryState>
    </Stack>
  );
}
