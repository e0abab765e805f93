/**
 * "Create user" on the users list (docs/api-contract.md §13): a project, an email, optionally a username, and
 * how the user gets in — a password the admin sets, a set-password invitation mail, or neither
 * (a magic link, a social sign-in or a reset later). The server's field errors (problem details'
 * `errors`, a 409 naming the field) land on their fields; the new user's page opens.
 */
import {
  Button,
  Checkbox,
  Modal,
  PasswordInput,
  Radio,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { unwrap } from '../../api/clients';
import { ApiProblem, fieldErrors } from '@gatehouse/ui-shared';
import { useAdminApi } from '../../auth/AuthContext';
import { FormProblem } from '../../ui/FormProblem';
import { ProjectSelect } from '../../ui/ProjectSelect';

type Access = 'invitation' | 'password' | 'none';
const FIELDS = [
  'project_id',
  'email',
  'username',
  'password',
  'send_invitation',
  'email_verified',
] as const;

export function CreateUserButton({ projectId }: { projectId: string | null }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Create user</Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Create user" centered size="lg">
        {open && <CreateUserForm initialProject={projectId} onClose={() => setOpen(false)} />}
      </Modal>
    </>
  );
}

function CreateUserForm({
  initialProject,
  onClose,
}: {
  initialProject: string | null;
  onClose: () => void;
}) {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [project, setProject] = useState<string | null>(initialProject);
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [access, setAccess] = useState<Access>('invitation');
  const [password, setPassword] = useState('');
  const [verified, setVerified] = useState(false);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/admin/users', {
          body: {
            project_id: project ?? '',
            email: email.trim(),
            ...(username.trim() ? { username: username.trim() } : {}),
            ...(access === 'password' ? { password } : {}),
            send_invitation: access === 'invitation',
            email_verified: verified,
          },
        }),
      ),
    onSuccess: async (user) => {
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      onClose();
      void navigate(`/users/${user.id}`, {
        state: {
          created:
            access === 'invitation'
              ? `Invitation sent to ${user.email}.`
              : `${user.email} was created.`,
        },
      });
    },
  });
  // A 409 names its field too (`errors.email`): shown on the field, like a validation error.
  const errors = fieldErrors(create.error, FIELDS);
  const conflict =
    create.error instanceof ApiProblem &&
    create.error.slug === 'conflict' &&
    Object.keys(errors.fields).length > 0;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <ProjectSelect
          label="Project"
          placeholder="Choose the user's project"
          required
          value={project}
          onChange={setProject}
          error={errors.fields.project_id}
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput
          label="Email"
          type="email"
          autoComplete="off"
          required
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={errors.fields.email}
          data-autofocus
        />
        <TextInput
          label="Username"
          description="Optional: 3–32 of a-z, 0-9, _ . -"
          autoComplete="off"
          value={username}
          onChange={(e) => setUsername(e.currentTarget.value)}
          error={errors.fields.username}
        />
        <Radio.Group
          label="How they sign in the first time"
          value={access}
          onChange={(v) => setAccess(v)}
          error={errors.fields.send_invitation}
        >
          <Stack gap="xs" mt="xs">
            <Radio
              value="invitation"
              label="Send an invitation mail to choose a password (the link works for 7 days)"
            />
            <Radio value="password" label="Set a password now" />
            <Radio value="none" label="No password (magic link, social sign-in or a reset later)" />
          </Stack>
        </Radio.Group>
        {access === 'password' && (
          <PasswordInput
            label="Password"
            description="8–128 characters; not a common password, the email or the username"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.fields.password}
          />
        )}
        <Checkbox
          label="The email address is already verified"
          checked={verified}
          onChange={(e) => setVerified(e.currentTarget.checked)}
        />
        {!conflict && (
          <FormProblem error={create.error} fields={FIELDS} title="Could not create the user" />
        )}
        {access === 'invitation' && (
          <Text size="sm" c="dimmed">
            The mail links to the project’s password reset page (settings.password_reset_url).
          </Text>
        )}
        <Button
          type="submit"
          loading={create.isPending}
          disabled={!project || !email.trim() || (access === 'password' && !password)}
        >
          {access === 'invitation' ? 'Create and send invitation' : 'Create user'}
        </Button>
      </Stack>
    </form>
  );
}
