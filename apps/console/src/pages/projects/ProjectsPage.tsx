/** Projects of the tenant: search, pages, and a form to create one. */
import {
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { unwrap } from '../../api/clients';
import { fieldErrors } from '@gatehouse/ui-shared';
import { useAdminApi } from '../../auth/AuthContext';
import { ListTable } from '../../ui/ListTable';
import { FormActions } from '../../ui/FormActions';
import { FormProblem } from '../../ui/FormProblem';
import { formatDate, lines } from '../../ui/format';
import { PageTitle } from '../../ui/PageTitle';
import { Pager } from '../../ui/Pager';
import { QueryState } from '../../ui/QueryState';
import { SearchInput } from '../../ui/SearchInput';
import { useListParams } from '../../ui/useListParams';

export default function ProjectsPage() {
  const api = useAdminApi();
  const { values, page, setFilter, setPage } = useListParams(['q'] as const);
  const [creating, setCreating] = useState(false);
  const projects = useQuery({
    queryKey: ['projects', values.q, page],
    queryFn: () =>
      unwrap(
        api.GET('/v1/admin/projects', {
          params: { query: { page, limit: 20, ...(values.q ? { q: values.q } : {}) } },
        }),
      ),
  });
  return (
    <>
      <PageTitle title="Projects">
        <Button onClick={() => setCreating(true)}>New project</Button>
      </PageTitle>
      <Group mb="md">
        <SearchInput
          label="Search projects"
          placeholder="Name contains…"
          value={values.q}
          onSearch={(q) => setFilter('q', q)}
        />
      </Group>
      <QueryState
        query={projects}
        label="projects"
        list
        isEmpty={(d) => d.projects.length === 0}
        empty={
          values.q ? 'No project matches this search.' : 'No projects yet: create the first one.'
        }
      >
        {(data) => (
          <>
            <ListTable
              minWidth={560}
              striped
              highlightOnHover
              columns={['Name', 'Publishable key', 'Created']}
            >
              {data.projects.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/projects/${p.id}`}>
                      {p.name}
                    </Anchor>
                    {p.allowed_origins.length === 0 && (
                      <Badge ml="xs" size="xs" color="gray" variant="light">
                        no origins
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {p.publishable_key}
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatDate(p.created_at)}</Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
            <Pager pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
      <Modal opened={creating} onClose={() => setCreating(false)} title="New project" size="lg">
        <CreateProjectForm onCancel={() => setCreating(false)} />
      </Modal>
    </>
  );
}

const CREATE_FIELDS = [
  'name',
  'allowed_origins',
  'redirect_urls',
  'settings.default_redirect_url',
] as const;

function CreateProjectForm({ onCancel }: { onCancel: () => void }) {
  const api = useAdminApi();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [origins, setOrigins] = useState('');
  const [redirects, setRedirects] = useState('');
  const create = useMutation({
    mutationFn: () => {
      const redirectUrls = lines(redirects);
      return unwrap(
        api.POST('/v1/admin/projects', {
          body: {
            name: name.trim(),
            allowed_origins: lines(origins),
            redirect_urls: redirectUrls,
            ...(redirectUrls[0] ? { settings: { default_redirect_url: redirectUrls[0] } } : {}),
          },
        }),
      );
    },
    onSuccess: async (project) => {
      await client.invalidateQueries({ queryKey: ['projects'] });
      void navigate(`/projects/${project.id}`);
    },
  });
  const errors = fieldErrors(create.error, CREATE_FIELDS);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label="Name"
          required
          data-autofocus
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.fields.name}
        />
        <Textarea
          label="Allowed origins"
          description="One per line, scheme://host[:port], e.g. https://app.example.com"
          autosize
          minRows={2}
          value={origins}
          onChange={(e) => setOrigins(e.currentTarget.value)}
          error={errors.fields.allowed_origins}
        />
        <Textarea
          label="Redirect URLs"
          description="One per line, exact URLs; the first is the default redirect"
          autosize
          minRows={2}
          value={redirects}
          onChange={(e) => setRedirects(e.currentTarget.value)}
          error={errors.fields.redirect_urls ?? errors.fields['settings.default_redirect_url']}
        />
        <FormProblem
          error={create.error}
          fields={CREATE_FIELDS}
          title="The project was not created"
        />
        <FormActions onCancel={onCancel} submitLabel="Create project" busy={create.isPending} />
      </Stack>
    </form>
  );
}
