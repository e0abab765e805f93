/** Users of the tenant: search by email or username, filter by project, page through, open one; create a user; export a project's users. */
import { Anchor, Badge, Button, Group, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { unwrap } from '../../api/clients';
import { useAdminApi } from '../../auth/AuthContext';
import { ListTable } from '../../ui/ListTable';
import { factorName } from '../../ui/factor-names';
import { formatDate } from '../../ui/format';
import { PageTitle } from '../../ui/PageTitle';
import { Pager } from '../../ui/Pager';
import { useProjectOptions } from '../../ui/ProjectSelect';
import { QueryState } from '../../ui/QueryState';
import { SearchFilters, useSearchFilters } from '../../ui/SearchFilters';
import { CreateUserButton } from './CreateUser';
import { ExportUsersButton } from './ExportUsers';
import { StatusBadge } from './StatusBadge';

export default function UsersPage() {
  const api = useAdminApi();
  const filters = useSearchFilters();
  const { page, values, setPage, apiQuery, filtered } = filters;
  const { names } = useProjectOptions();
  const query = useQuery({
    queryKey: ['users', { q: values.q, project: values.project, page }],
    queryFn: () => unwrap(api.GET('/v1/admin/users', { params: { query: apiQuery } })),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageTitle title="Users">
        <CreateUserButton projectId={values.project || null} />
      </PageTitle>
      <SearchFilters label="Search users" placeholder="Email or username" filters={filters}>
        <ExportUsersButton projectId={values.project || null} />
        <Button component={Link} to="/users/import" variant="default">
          Import users
        </Button>
      </SearchFilters>
      <QueryState
        query={query}
        label="users"
        list
        isEmpty={(d) => d.users.length === 0}
        empty={
          filtered
            ? 'No user matches this search.'
            : 'No users yet: they appear here once they sign up to a project.'
        }
      >
        {(data) => (
          <>
            <ListTable
              minWidth={760}
              striped
              highlightOnHover
              verticalSpacing="xs"
              aria-label="Users"
              columns={['Email', 'Username', 'Project', 'Status', 'MFA', 'Created', 'Last sign-in']}
            >
              {data.users.map((u) => (
                <Table.Tr key={u.id}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Anchor component={Link} to={`/users/${u.id}`} size="sm">
                        {u.email}
                      </Anchor>
                      {u.is_admin && (
                        <Badge size="xs" variant="default" style={{ flexShrink: 0 }}>
                          Tenant admin
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    {u.username ?? (
                      <Text span c="dimmed" size="sm">
                        —
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {names.get(u.project_id) ?? (
                      <Text span size="xs" ff="monospace">
                        {u.project_id.slice(0, 8)}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge status={u.status} />
                  </Table.Td>
                  <Table.Td>
                    {u.mfa_factors.length ? u.mfa_factors.map(factorName).join(', ') : '—'}
                  </Table.Td>
                  <Table.Td>{formatDate(u.created_at)}</Table.Td>
                  <Table.Td>{formatDate(u.last_sign_in_at)}</Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
            <Pager pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
    </>
  );
}
