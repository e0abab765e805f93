/**
 * A project's OpenID Connect provider (docs/oidc.md): `settings.oidc` (on/off, login page, dynamic
 * registration), the issuer to give relying parties, and the OAuth clients (create with the secret
 * shown once, edit, rotate the secret, delete). Loaded only when its tab is opened.
 */
import { Badge, Button, Group, NativeSelect, Stack, Switch, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { unwrap } from '../../api/clients';
import type { components } from '../../api/control-plane';
import { fieldErrors } from '@gatehouse/ui-shared';
import { useAdminApi, useAuth } from '../../auth/AuthContext';
import { ListTable } from '../../ui/ListTable';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { CopyValue } from '../../ui/CopyValue';
import { DetailGrid } from '../../ui/DetailGrid';
import { FormDialogs, useFormDialogs } from '../../ui/FormDialogs';
import { formatDate } from '../../ui/format';
import { Pager } from '../../ui/Pager';
import { QueryState } from '../../ui/QueryState';
import { SecretOnce } from '../../ui/SecretOnce';
import { SaveFooter } from '../../ui/SaveFooter';
import { Section } from '../../ui/Section';
import { useListParams } from '../../ui/useListParams';
import { ApiResourcesSection } from './ApiResourcesSection';
import {
  AUTH_METHOD_LABELS,
  bodyOf,
  NEW_CLIENT,
  OAuthClientForm,
  valuesOf,
  type OAuthClientValues,
} from './OAuthClientForm';

type Project = components['schemas']['ProjectResponse'];
type Client = components['schemas']['OAuthClientResponse'];
type Created = components['schemas']['OAuthClientCreatedResponse'];

const HOSTED = '';
const OIDC_FIELDS = [
  'settings.oidc.enabled',
  'settings.oidc.login_url',
  'settings.oidc.dynamic_registration',
] as const;
const clientKeys = {
  all: (projectId: string) => ['oauth-clients', projectId] as const,
  page: (projectId: string, page: number) => ['oauth-clients', projectId, page] as const,
};

/** `{auth_url}/v1/projects/{id}`, the `iss` of every token and the base of discovery. */
function issuerOf(authUrl: string, projectId: string): string {
  return `${authUrl.replace(/\/+$/, '')}/v1/projects/${projectId}`;
}

export default function OidcPanel({ project }: { project: Project }) {
  const { config } = useAuth();
  const issuer = issuerOf(config.auth_url, project.id);
  return (
    <Stack gap="lg">
      <Provider project={project} issuer={issuer} />
      <Clients projectId={project.id} />
      <ApiResourcesSection projectId={project.id} />
    </Stack>
  );
}

function Provider({ project, issuer }: { project: Project; issuer: string }) {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const oidc = project.settings.oidc;
  const [enabled, setEnabled] = useState(oidc.enabled);
  const [loginUrl, setLoginUrl] = useState(oidc.login_url ?? HOSTED);
  const [dynamic, setDynamic] = useState(oidc.dynamic_registration);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/v1/admin/projects/{id}', {
          params: { path: { id: project.id } },
          // settings.oidc is replaced whole: the members this panel does not show keep their values.
          body: {
            settings: {
              oidc: {
                ...oidc,
                enabled,
                login_url: loginUrl || null,
                dynamic_registration: dynamic,
              },
            },
          },
        }),
      ),
    onSuccess: (updated) => {
      queryClient.setQueryData(['project', project.id], updated);
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
    },
  });
  const errors = fieldErrors(save.error, OIDC_FIELDS);
  // The stored page is one of the redirect URLs; it is listed even if it was written in another form.
  const pages = [
    ...new Set([...project.redirect_urls, ...(oidc.login_url ? [oidc.login_url] : [])]),
  ];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <Section
      title="OpenID Connect"
      actions={
        <Badge
          color={oidc.enabled ? 'teal.9' : 'gray.7'}
          variant="filled"
          data-testid="oidc-status"
        >
          {oidc.enabled ? 'Provider on' : 'Provider off'}
        </Badge>
      }
    >
      <Stack>
        <Text size="sm">
          Other apps (Grafana, an internal tool, a mobile app) sign their users in with this project
          through any OpenID Connect library: give them the issuer, a client ID and, for a
          confidential client, its secret.
        </Text>
        <DetailGrid
          items={[
            {
              label: 'Issuer',
              value: <CopyValue value={issuer} label="issuer URL" testId="oidc-issuer" />,
            },
            {
              label: 'Discovery',
              value: (
                <CopyValue
                  value={`${issuer}/.well-known/openid-configuration`}
                  label="the discovery URL"
                  testId="oidc-discovery"
                />
              ),
            },
          ]}
        />
        <form onSubmit={submit} noValidate>
          <Stack maw={720}>
            <Switch
              label="OpenID Connect provider on"
              description="While it is off, discovery and every provider URL answer 404"
              checked={enabled}
              onChange={(e) => setEnabled(e.currentTarget.checked)}
              error={errors.fields['settings.oidc.enabled']}
            />
            <NativeSelect
              label="Login page"
              description={
                project.redirect_urls.length
                  ? "Where the provider sends users to sign in and consent (with ?interaction=…): Gatehouse's hosted pages, or your app's page among the project's redirect URLs"
                  : "Where the provider sends users to sign in and consent. To use your app's own page, add it to the redirect URLs (Settings) first"
              }
              data={[
                { value: HOSTED, label: 'Gatehouse hosted pages' },
                ...pages.map((url) => ({ value: url, label: url })),
              ]}
              value={loginUrl}
              onChange={(e) => setLoginUrl(e.currentTarget.value)}
              error={errors.fields['settings.oidc.login_url']}
            />
            <Switch
              label="Dynamic client registration"
              description={`Anyone may register a client at ${issuer}/register (RFC 7591); such clients always ask users for consent`}
              checked={dynamic}
              onChange={(e) => setDynamic(e.currentTarget.checked)}
              error={errors.fields['settings.oidc.dynamic_registration']}
            />
            <SaveFooter
              error={save.error}
              fields={OIDC_FIELDS}
              problemTitle="The OpenID Connect settings were not saved"
              label="Save OpenID Connect settings"
              busy={save.isPending}
              saved={save.isSuccess && !save.isPending}
            />
          </Stack>
        </form>
      </Stack>
    </Section>
  );
}

function typeLabel(c: Client): string {
  return c.public ? 'Public' : 'Confidential';
}

function Clients({ projectId }: { projectId: string }) {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const { page, setPage } = useListParams([] as const);
  const [rotated, setRotated] = useState<{ name: string; secret: string } | null>(null);
  const list = useQuery({
    queryKey: clientKeys.page(projectId, page),
    queryFn: () =>
      unwrap(
        api.GET('/v1/admin/projects/{id}/oauth-clients', {
          params: { path: { id: projectId }, query: { page, limit: 20 } },
        }),
      ),
  });
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: ['audit'] });
    return queryClient.invalidateQueries({ queryKey: clientKeys.all(projectId) });
  };
  const dialogs = useFormDialogs({
    create: (values: OAuthClientValues): Promise<Created> =>
      unwrap(
        api.POST('/v1/admin/projects/{id}/oauth-clients', {
          params: { path: { id: projectId } },
          body: bodyOf(values),
        }),
      ),
    update: (c: Client, values: OAuthClientValues) => {
      const { token_endpoint_auth_method: _method, ...body } = bodyOf(values);
      return unwrap(
        api.PATCH('/v1/admin/projects/{id}/oauth-clients/{client_id}', {
          params: { path: { id: projectId, client_id: c.client_id } },
          body,
        }),
      );
    },
    onSaved: changed,
    keepCreated: true,
  });
  const rotate = async (c: Client) => {
    const answer = await unwrap(
      api.POST('/v1/admin/projects/{id}/oauth-clients/{client_id}/secret/rotate', {
        params: { path: { id: projectId, client_id: c.client_id } },
        body: {},
      }),
    );
    setRotated({ name: answer.name, secret: answer.client_secret });
    await changed();
  };
  const remove = async (c: Client) => {
    await unwrap(
      api.DELETE('/v1/admin/projects/{id}/oauth-clients/{client_id}', {
        params: { path: { id: projectId, client_id: c.client_id } },
      }),
    );
    setRotated(null);
    await changed();
  };

  return (
    <Section
      title="OAuth clients"
      actions={<Button onClick={dialogs.openCreate}>New client</Button>}
    >
      <Stack>
        {rotated && (
          <SecretOnce
            label={`New secret of “${rotated.name}”`}
            secret={rotated.secret}
            onDone={() => setRotated(null)}
          />
        )}
        <QueryState
          query={list}
          label="OAuth clients"
          list
          isEmpty={(d) => d.oauth_clients.length === 0}
          empty="No clients yet. Register each app that signs users in with this project."
        >
          {(data) => (
            <>
              <ListTable
                minWidth={880}
                nativeScroll
                striped
                verticalSpacing="xs"
                aria-label="OAuth clients"
                columns={['Client', 'Type', 'Grant types', 'Redirect URIs', 'Created']}
                scoped
                actions
              >
                {data.oauth_clients.map((c) => (
                  <Table.Tr key={c.client_id} data-client-id={c.client_id}>
                    <Table.Td>
                      <Stack gap={4}>
                        <Text size="sm">
                          {c.name}
                          {c.first_party && (
                            <Text span size="xs" c="dimmed">
                              {' '}
                              · first-party
                            </Text>
                          )}
                        </Text>
                        <CopyValue
                          value={c.client_id}
                          label={`the client ID of ${c.name}`}
                          nowrap
                        />
                      </Stack>
                    </Table.Td>
                    <Table.Td>
                      <Badge
                        color={c.public ? 'indigo.9' : 'teal.9'}
                        variant="filled"
                        miw="max-content"
                        title={AUTH_METHOD_LABELS[c.token_endpoint_auth_method]}
                      >
                        {typeLabel(c)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{c.grant_types.join(', ')}</Text>
                    </Table.Td>
                    <Table.Td maw={280}>
                      {c.redirect_uris.length === 0 ? (
                        '—'
                      ) : (
                        <Text size="sm" style={{ wordBreak: 'break-all' }}>
                          {c.redirect_uris[0]}
                          {c.redirect_uris.length > 1 && ` (+${c.redirect_uris.length - 1})`}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatDate(c.created_at)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`Edit ${c.name}`}
                          onClick={() => dialogs.openEdit(c)}
                        >
                          Edit
                        </Button>
                        {!c.public && (
                          <ConfirmButton
                            label="Rotate secret"
                            aria-label={`Rotate secret of ${c.name}`}
                            title="Rotate this client's secret?"
                            message={`The current secret of “${c.name}” stops working at once: the app cannot sign users in until it has the new one, shown next (once).`}
                            confirmLabel="Rotate secret"
                            onConfirm={() => rotate(c)}
                          />
                        )}
                        <ConfirmButton
                          label="Delete"
                          aria-label={`Delete ${c.name}`}
                          title="Delete this client?"
                          message={`“${c.name}” can no longer sign users in, and the grants users gave it are deleted with it. This cannot be undone.`}
                          confirmLabel="Delete client"
                          onConfirm={() => remove(c)}
                        />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </ListTable>
              <Pager pagination={data.pagination} onPage={setPage} />
            </>
          )}
        </QueryState>
      </Stack>

      <FormDialogs
        dialogs={dialogs}
        createTitle="New OAuth client"
        editTitle={(c) => (c ? `Edit “${c.name}”` : 'Edit client')}
        itemKey={(c) => c.client_id}
        renderCreate={(form, created) =>
          created ? (
            <Stack>
              <Stack gap={4}>
                <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                  Client ID
                </Text>
                <CopyValue
                  value={created.client_id}
                  label="the client ID"
                  testId="created-client-id"
                />
              </Stack>
              <Text size="sm">{AUTH_METHOD_LABELS[created.token_endpoint_auth_method]}</Text>
              {created.client_secret ? (
                <SecretOnce label="Client secret" secret={created.client_secret} />
              ) : (
                <Text size="sm">A public client has no secret: PKCE proves each sign-in.</Text>
              )}
              <Text size="sm">
                Give the issuer, the client ID{created.client_secret ? ' and the secret' : ''} to
                the app's OpenID Connect library.
              </Text>
              <Group justify="flex-end">
                <Button onClick={dialogs.closeCreate}>Done</Button>
              </Group>
            </Stack>
          ) : (
            <OAuthClientForm initial={NEW_CLIENT} submitLabel="Create client" {...form} />
          )
        }
        renderEdit={(c, form) => (
          <OAuthClientForm initial={valuesOf(c)} editing submitLabel="Save client" {...form} />
        )}
      />
    </Section>
  );
}
