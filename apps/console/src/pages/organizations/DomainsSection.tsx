/** An organization's verified domains: add one, publish its TXT record, verify it (by DNS or by the admin's word), choose how users at it join, remove it. */
import { Badge, Button, Group, NativeSelect, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { fieldErrors, ProblemAlert } from '@gatehouse/ui-shared';
import { unwrap } from '../../api/clients';
import type { components } from '../../api/control-plane';
import { useAdminApi } from '../../auth/AuthContext';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { CopyValue } from '../../ui/CopyValue';
import { ListTable } from '../../ui/ListTable';
import { QueryState } from '../../ui/QueryState';
import { SaveFooter } from '../../ui/SaveFooter';
import { Section } from '../../ui/Section';
import { useProjectRoles } from '../../ui/useProjectRoles';

type Organization = components['schemas']['OrganizationResponse'];
type Domain = components['schemas']['DomainResponse'];
type Enrollment = Domain['enrollment'];

const ENROLLMENTS: { value: Enrollment; label: string }[] = [
  { value: 'none', label: 'Nothing (verified only)' },
  { value: 'suggest', label: 'Suggest joining' },
  { value: 'auto_join', label: 'Join automatically' },
];

export function DomainsSection({ org }: { org: Organization }) {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const key = ['organization', org.id, 'domains'];
  const query = useQuery({
    queryKey: key,
    queryFn: () =>
      unwrap(api.GET('/v1/admin/organizations/{id}/domains', { params: { path: { id: org.id } } })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  return (
    <Section title="Domains">
      <Stack>
        <Text size="sm" c="dimmed">
          Users of the project whose <strong>verified</strong> email is at a verified domain can
          join this organization by it: with &ldquo;Suggest joining&rdquo; they see it among their
          suggestions, with &ldquo;Join automatically&rdquo; they become members at sign-up, email
          verification or sign-in. A domain is verified for one organization of the project at most.
        </Text>
        <QueryState
          query={query}
          label="domains"
          isEmpty={(d) => d.domains.length === 0}
          empty="No domains yet."
        >
          {(data) => (
            <ListTable
              minWidth={720}
              verticalSpacing="xs"
              aria-label="Domains"
              columns={['Domain', 'Status', 'Enrollment', 'Role']}
              actions
            >
              {data.domains.map((d) => (
                <DomainRow key={d.id} org={org} domain={d} onChanged={refresh} />
              ))}
            </ListTable>
          )}
        </QueryState>
        <AddDomainForm org={org} onAdded={refresh} />
      </Stack>
    </Section>
  );
}

function DomainRow({
  org,
  domain,
  onChanged,
}: {
  org: Organization;
  domain: Domain;
  onChanged: () => Promise<unknown>;
}) {
  const api = useAdminApi();
  const roles = useProjectRoles(org.project_id);
  const path = { id: org.id, domainId: domain.id };
  const [reasonOpen, setReasonOpen] = useState(false);
  const verify = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/admin/organizations/{id}/domains/{domainId}/verify', {
          params: { path },
          body: {},
        }),
      ),
    onSuccess: onChanged,
  });
  const update = useMutation({
    mutationFn: (body: components['schemas']['UpdateDomainDto']) =>
      unwrap(
        api.PATCH('/v1/admin/organizations/{id}/domains/{domainId}', { params: { path }, body }),
      ),
    onSuccess: onChanged,
  });
  const remove = () =>
    unwrap(
      api.DELETE('/v1/admin/organizations/{id}/domains/{domainId}', { params: { path } }),
    ).then(onChanged);
  const pending = domain.status === 'pending';
  return (
    <>
      <Table.Tr>
        <Table.Td>
          <Text size="sm" fw={500}>
            {domain.domain}
          </Text>
        </Table.Td>
        <Table.Td>
          <Badge variant="dot" size="sm" color={pending ? 'orange' : 'teal'}>
            {pending ? 'Pending' : 'Verified'}
          </Badge>
        </Table.Td>
        <Table.Td>
          <NativeSelect
            aria-label={`How users at ${domain.domain} join`}
            size="xs"
            data={ENROLLMENTS}
            value={
              update.isPending && update.variables.enrollment
                ? update.variables.enrollment
                : domain.enrollment
            }
            disabled={update.isPending}
            onChange={(e) => update.mutate({ enrollment: e.currentTarget.value as Enrollment })}
          />
        </Table.Td>
        <Table.Td>
          <NativeSelect
            aria-label={`Role of users who join by ${domain.domain}`}
            size="xs"
            data={roles.options(domain.default_role)}
            value={
              update.isPending && update.variables.default_role
                ? update.variables.default_role
                : domain.default_role
            }
            disabled={update.isPending}
            onChange={(e) => update.mutate({ default_role: e.currentTarget.value })}
          />
        </Table.Td>
        <Table.Td>
          <Group gap="xs" wrap="nowrap">
            {pending && (
              <Button
                size="xs"
                variant="light"
                loading={verify.isPending}
                onClick={() => verify.mutate()}
                aria-label={`Verify ${domain.domain}`}
              >
                Verify
              </Button>
            )}
            {pending && (
              <Button
                size="xs"
                variant="subtle"
                onClick={() => setReasonOpen((o) => !o)}
                aria-expanded={reasonOpen}
                aria-label={`Mark ${domain.domain} verified without DNS`}
              >
                Mark verified…
              </Button>
            )}
            <ConfirmButton
              label="Remove"
              aria-label={`Remove ${domain.domain}`}
              title={`Remove ${domain.domain}?`}
              confirmLabel="Remove domain"
              message="Users at this domain stop joining by it; the members it brought stay."
              onConfirm={remove}
            />
          </Group>
        </Table.Td>
      </Table.Tr>
      {pending && (
        <Table.Tr>
          <Table.Td colSpan={5}>
            <Stack gap="xs">
              <Text size="sm">
                To verify, add this TXT record at your DNS provider, then press Verify (DNS changes
                can take a few minutes to show):
              </Text>
              <Group gap="lg" wrap="wrap">
                <Stack gap={2}>
                  <Text size="xs" c="dimmed">
                    Name
                  </Text>
                  <CopyValue value={domain.verification.name} label="TXT record name" nowrap />
                </Stack>
                <Stack gap={2}>
                  <Text size="xs" c="dimmed">
                    Value
                  </Text>
                  <CopyValue value={domain.verification.value} label="TXT record value" nowrap />
                </Stack>
              </Group>
              <ProblemAlert error={verify.error} title={`${domain.domain} is not verified yet`} />
              {reasonOpen && (
                <MarkVerifiedForm
                  domain={domain}
                  onSubmit={(reason) =>
                    update
                      .mutateAsync({ status: 'verified', reason })
                      .then(() => setReasonOpen(false))
                  }
                  error={update.error}
                  busy={update.isPending}
                />
              )}
            </Stack>
          </Table.Td>
        </Table.Tr>
      )}
      {!pending && update.error && (
        <Table.Tr>
          <Table.Td colSpan={5}>
            <ProblemAlert error={update.error} title="The change was not saved" />
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}

const REASON_FIELDS = ['reason', 'status'] as const;

function MarkVerifiedForm({
  domain,
  onSubmit,
  error,
  busy,
}: {
  domain: Domain;
  onSubmit: (reason: string) => Promise<unknown>;
  error: unknown;
  busy: boolean;
}) {
  const [reason, setReason] = useState('');
  const [local, setLocal] = useState<string | undefined>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setLocal(reason.trim() ? undefined : 'Say why (it is kept in the audit log)');
    if (reason.trim()) void onSubmit(reason.trim()).catch(() => undefined);
  };
  const server = fieldErrors(error, REASON_FIELDS);
  return (
    <form onSubmit={submit} noValidate aria-label={`Mark ${domain.domain} verified`}>
      <Stack gap="xs">
        <TextInput
          label="Reason"
          description="You vouch that the organization owns this domain; the reason is audited."
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={local ?? server.fields.reason}
          maxLength={500}
        />
        <SaveFooter
          error={error}
          fields={REASON_FIELDS}
          problemTitle="The domain was not verified"
          label="Mark verified"
          busy={busy}
        />
      </Stack>
    </form>
  );
}

const ADD_FIELDS = ['domain'] as const;

function AddDomainForm({ org, onAdded }: { org: Organization; onAdded: () => Promise<unknown> }) {
  const api = useAdminApi();
  const [domain, setDomain] = useState('');
  const [local, setLocal] = useState<string | undefined>();
  const add = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/admin/organizations/{id}/domains', {
          params: { path: { id: org.id } },
          body: { domain: domain.trim() },
        }),
      ),
    onSuccess: async () => {
      setDomain('');
      await onAdded();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setLocal(domain.trim() ? undefined : 'Required');
    if (domain.trim()) add.mutate();
  };
  const server = fieldErrors(add.error, ADD_FIELDS);
  return (
    <form onSubmit={submit} noValidate aria-label="Add a domain">
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="Domain"
          placeholder="acme.com"
          value={domain}
          onChange={(e) => setDomain(e.currentTarget.value)}
          error={local ?? server.fields.domain}
          miw={240}
        />
        <SaveFooter
          error={add.error}
          fields={ADD_FIELDS}
          problemTitle="The domain was not added"
          label="Add domain"
          busy={add.isPending}
        />
      </Group>
    </form>
  );
}
