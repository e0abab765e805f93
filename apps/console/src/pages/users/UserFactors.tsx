/**
 * The user's second factors and passkeys (`GET /v1/admin/users/{id}/factors`): remove one, or
 * "Reset MFA" to remove them all (★: the admin's recent proof is asked in place).
 */
import { Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../api/clients';
import type { components } from '../../api/control-plane';
import { useAdminApi } from '../../auth/AuthContext';
import { ListTable } from '../../ui/ListTable';
import { factorName } from '../../ui/factor-names';
import { formatDate } from '../../ui/format';
import { QueryState } from '../../ui/QueryState';
import { Section } from '../../ui/Section';
import { SensitiveButton } from './SensitiveButton';

type Factor = components['schemas']['UserFactorResponse'];

const PROOF =
  'Removing a second factor lets someone with only the password in: it needs a recent proof of identity.';

/** What tells two factors of a type apart: a passkey's name, the masked number, the codes left. */
function factorDetail(f: Factor): string {
  if (f.type === 'passkey') return f.name ?? 'Unnamed passkey';
  if (f.type === 'sms') return f.phone_number_hint ?? '—';
  if (f.type === 'backup_codes') return `${f.remaining ?? 0} unused`;
  return '—';
}

export function UserFactors({
  userId,
  email,
  onChange,
}: {
  userId: string;
  email: string;
  onChange: () => Promise<unknown>;
}) {
  const api = useAdminApi();
  const query = useQuery({
    queryKey: ['user', userId, 'factors'],
    queryFn: () =>
      unwrap(api.GET('/v1/admin/users/{id}/factors', { params: { path: { id: userId } } })),
  });
  const changed = () => Promise.all([query.refetch(), onChange()]);
  const remove = (f: Factor) =>
    unwrap(
      api.DELETE('/v1/admin/users/{id}/factors/{factor_id}', {
        params: { path: { id: userId, factor_id: f.id } },
      }),
    ).then(changed);
  const resetAll = () =>
    unwrap(api.DELETE('/v1/admin/users/{id}/factors', { params: { path: { id: userId } } })).then(
      changed,
    );
  const factors = query.data?.factors ?? [];
  return (
    <Section
      title="Second factors and passkeys"
      actions={
        factors.length > 0 && (
          <SensitiveButton
            label="Reset MFA"
            title="Reset every second factor?"
            confirmLabel="Reset MFA"
            reason={PROOF}
            message={`Every authenticator app, SMS number, backup code and passkey of ${email} is removed. Their next password sign-in asks for no second factor; they can set one up again.`}
            onConfirm={resetAll}
          />
        )
      }
    >
      <QueryState
        query={query}
        label="second factors"
        list
        isEmpty={(d) => d.factors.length === 0}
        empty="No second factor or passkey: a password (or a magic link) alone signs this user in."
      >
        {(data) => (
          <ListTable
            minWidth={640}
            verticalSpacing="xs"
            aria-label="Second factors and passkeys"
            columns={['Factor', 'Details', 'Added', 'Last used']}
            actions
          >
            {data.factors.map((f) => (
              <Table.Tr key={f.id} data-factor-type={f.type}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {factorName(f.type)}
                  </Text>
                </Table.Td>
                <Table.Td>{factorDetail(f)}</Table.Td>
                <Table.Td>{formatDate(f.created_at)}</Table.Td>
                <Table.Td>{formatDate(f.last_used_at)}</Table.Td>
                <Table.Td>
                  <SensitiveButton
                    label="Remove"
                    aria-label={`Remove ${factorName(f.type)}${f.type === 'passkey' && f.name ? ` ${f.name}` : ''}`}
                    title={`Remove ${factorName(f.type).toLowerCase()}?`}
                    confirmLabel="Remove"
                    reason={PROOF}
                    message={
                      f.type === 'backup_codes'
                        ? `The backup codes of ${email} stop working.`
                        : f.type === 'passkey'
                          ? `The passkey “${f.name ?? 'unnamed'}” can no longer sign ${email} in.`
                          : `${email} no longer needs this ${factorName(f.type).toLowerCase()} to sign in; once no app or SMS factor is left, the backup codes go too.`
                    }
                    onConfirm={() => remove(f)}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </QueryState>
    </Section>
  );
}
