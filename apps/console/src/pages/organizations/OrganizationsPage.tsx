/** Organizations of the tenant: search by name or slug, filter by project, page through, create one. */
import { Anchor, Button, Modal, Stack, Table, TextInput } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { unwrap } from '../../api/clients';
import { fieldErrors } from '@gatehouse/ui-shared';
import { useAdminApi } from '../../auth/AuthContext';
import { ListTable } from '../../ui/ListTable';
import { FormActions } from '../../ui/FormActions';
import { FormProblem } from '../../ui/FormProblem';
import { formatDate } from '../../ui/format';
import { MetadataInput, parseMetadata } from '../../ui/MetadataInput';
import { PageTitle } from '../../ui/PageTitle';
import { Pager } from '../../ui/Pager';
import { ProjectSelect, useProjectOptions } from '../../ui/ProjectSelect';
import { QueryState } from '../../ui/QueryState';
import { SearchFilters, useSearchFilters } from '../../ui/SearchFilters';

export default function OrganizationsPage() {
  const api = useAdminApi();
  const filters = useSearchFilters();
  const { page, values, setPage, apiQuery, filtered } = filters;
  const { names } = useProjectOptions();
  const [creating, setCreating] = useState(false);
  const query = useQuery({
    queryKey: ['organizations', { q: values.q, project: values.project, page }],
    queryFn: () => unwrap(api.GET('/v1/admin/organizations', { params: { query: apiQuery } })),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageTitle title="Organizations">
        <Button size="xs" onClick={() => setCreating(true)}>
          New organization
        </Button>
      </PageTitle>
      <SearchFilters label="Search organizations" placeholder="Name or slug" filters={filters} />
      <QueryState
        query={query}
        label="organizations"
        isEmpty={(d) => d.organizations.length === 0}
        empty={
          filtered
            ? 'No organization matches this search.'
            : 'No organizations yet: create one with “New organization”.'
        }
      >
        {(data) => (
          <>
            <ListTable
              minWidth={640}
              striped
              highlightOnHover
              verticalSpacing="xs"
              aria-label="Organizations"
              columns={['Name', 'Slug', 'Project', 'Created']}
            >
              {data.organizations.map((o) => (
                <Table.Tr key={o.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/organizations/${o.id}`} size="sm">
                      {o.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{o.slug}</Table.Td>
                  <Table.Td>{names.get(o.project_id) ?? o.project_id}</Table.Td>
                  <Table.Td>{formatDate(o.created_at)}</Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
            <Pager pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
      <Modal
        opened={creating}
        onClose={() => setCreating(false)}
        title="New organization"
        centered
        size="lg"
      >
        <CreateOrganizationForm
          defaultProject={values.project || null}
          onCancel={() => setCreating(false)}
        />
      </Modal>
    </>
  );
}

const FIELDS = ['project_id', 'name', 'slug', 'metadata'] as const;

function CreateOrganizationForm({
  defaultProject,
  onCancel,
}: {
  defaultProject: string | null;
  onCancel: () => void;
}) {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [projectId, setProjectId] = useState<string | null>(defaultProject);
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [metadata, setMetadata] = useState('{}');
  const [local, setLocal] = useState<Partial<Record<(typeof FIELDS)[number], string>>>({});
  const create = useMutation({
    mutationFn: (body: {
      project_id: string;
      name: string;
      slug?: string;
      metadata: Record<string, unknown>;
    }) => unwrap(api.POST('/v1/admin/organizations', { body })),
    onSuccess: async (org) => {
      await queryClient.invalidateQueries({ queryKey: ['organizations'] });
      void navigate(`/organizations/${org.id}`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseMetadata(metadata);
    const errors = {
      project_id: projectId ? undefined : 'Choose a project',
      name: name.trim() ? undefined : 'Required',
      metadata: parsed.error ?? undefined,
    };
    setLocal(errors);
    if (!projectId || !name.trim() || !parsed.value) return;
    create.mutate({
      project_id: projectId,
      name: name.trim(),
      slug: slug.trim() || undefined,
      metadata: parsed.value,
    });
  };
  const server = fieldErrors(create.error, FIELDS);
  const error = (f: (typeof FIELDS)[number]) => local[f] ?? server.fields[f];
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <ProjectSelect
          label="Project"
          required
          value={projectId}
          onChange={setProjectId}
          error={error('project_id')}
          comboboxProps={{ withinPortal: true }}
          data-autofocus
        />
        <TextInput
          label="Name"
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={error('name')}
        />
        <TextInput
          label="Slug"
          description="Lower-case words joined by “-”, unique in the project; derived from the name when empty."
          value={slug}
          onChange={(e) => setSlug(e.currentTarget.value)}
          error={error('slug')}
        />
        <MetadataInput value={metadata} onChange={setMetadata} error={error('metadata')} />
        <FormProblem
          error={create.error}
          fields={FIELDS}
          title="Could not create the organization"
        />
        <FormActions
          onCancel={onCancel}
          submitLabel="Create organization"
          busy={create.isPending}
        />
      </Stack>
    </form>
  );
}
