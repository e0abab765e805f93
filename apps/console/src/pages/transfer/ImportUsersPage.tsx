/**
 * Users → Import users: an NDJSON file (docs/api-contract.md §12, docs/migration.md) into one project, with the
 * import's options. The file is read as a stream and sent in batches of whole lines (import-batches),
 * so the counts grow while it goes and the per-line report at the end names the file's own line
 * numbers. An import that may overwrite credentials (`on_conflict=update`) needs a recent proof of
 * identity: asked in place (useReauthentication), then the batch is sent again. Vendor exports are
 * converted by the CLI (`users import --format …`), whose converters run in Node.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Code,
  FileInput,
  Group,
  Paper,
  Progress,
  Radio,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { unwrap } from '../../api/clients';
import { useAdminApi } from '../../auth/AuthContext';
import { ReauthenticationCancelled, useReauthentication } from '../../auth/Reauthenticate';
import { ListTable } from '../../ui/ListTable';
import { PageTitle } from '../../ui/PageTitle';
import { ProblemAlert } from '@gatehouse/ui-shared';
import { ProjectSelect } from '../../ui/ProjectSelect';
import {
  lineBatches,
  mergeReport,
  NO_COUNTS,
  type ImportCounts,
  type ImportReport,
} from './import-batches';

type OnConflict = 'skip' | 'update' | 'conflict';

interface Run {
  state: 'running' | 'stopped' | 'done' | 'failed';
  linesRead: number;
  bytesDone: number;
  size: number;
  report: ImportReport;
}

const COUNT_LABELS: [keyof ImportCounts, string][] = [
  ['created', 'Created'],
  ['updated', 'Updated'],
  ['skipped', 'Skipped'],
  ['conflicts', 'Conflicts'],
  ['rejected', 'Rejected'],
];

const FIREBASE_FIELDS = [
  ['signer_key', 'Signer key (base64)'],
  ['salt_separator', 'Salt separator (base64)'],
  ['rounds', 'Rounds'],
  ['mem_cost', 'Memory cost'],
] as const;
type FirebaseField = (typeof FIREBASE_FIELDS)[number][0];

/** Long code samples wrap anywhere on a narrow screen. */
const WRAP = { overflowWrap: 'anywhere' } as const;

function Counter({ label, value }: { label: string; value: number }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={`count-${label.toLowerCase().replace(/\s+/g, '-')}`}>
        {value.toLocaleString('en')}
      </Text>
    </Paper>
  );
}

export default function ImportUsersPage() {
  const api = useAdminApi();
  const [project, setProject] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [onConflict, setOnConflict] = useState<OnConflict>('skip');
  const [allowWeak, setAllowWeak] = useState(false);
  const [emitEvents, setEmitEvents] = useState(false);
  const [firebaseOn, setFirebaseOn] = useState(false);
  const [firebase, setFirebase] = useState<Record<FirebaseField, string>>({
    signer_key: '',
    salt_separator: '',
    rounds: '',
    mem_cost: '',
  });
  const [run, setRun] = useState<Run | null>(null);
  const [error, setError] = useState<unknown>(null);
  const stop = useRef(false);
  const { withProof, dialog } = useReauthentication(
    'An import that updates existing users may overwrite their passwords and TOTP secrets: it needs a recent proof of identity.',
  );

  const query = () => ({
    on_conflict: onConflict,
    ...(allowWeak ? { allow_weak_hashes: 'true' as const } : {}),
    ...(emitEvents ? { emit_events: 'true' as const } : {}),
    ...(firebaseOn
      ? Object.fromEntries<string>(
          FIREBASE_FIELDS.map(([k]): [string, string] => [k, firebase[k].trim()]).filter(
            ([, v]) => v !== '',
          ),
        )
      : {}),
  });
  const send = (id: string, text: string) =>
    unwrap(
      api.POST('/v1/admin/projects/{id}/users/import', {
        params: { path: { id }, query: query() },
        // The body is NDJSON as it is, not JSON-encoded.
        body: text as never,
        bodySerializer: (b: unknown) => b as string,
        headers: { 'Content-Type': 'application/x-ndjson' },
      }),
    ) as Promise<ImportReport>;

  const start = async () => {
    if (!project || !file) return;
    stop.current = false;
    setError(null);
    let current: Run = {
      state: 'running',
      linesRead: 0,
      bytesDone: 0,
      size: file.size,
      report: { counts: { ...NO_COUNTS }, errors: [] },
    };
    setRun(current);
    try {
      for await (const batch of lineBatches(file.stream())) {
        // Asked to stop: the batch answered last was the last one sent (a stop during the last batch lets the import finish).
        if (stop.current) {
          setRun({ ...current, state: 'stopped' });
          return;
        }
        const answer = await withProof(() => send(project, batch.text));
        current = {
          ...current,
          linesRead: batch.first + batch.lines - 1,
          bytesDone: Math.min(batch.bytesThrough, file.size),
          report: mergeReport(current.report, batch, answer),
        };
        setRun(current);
      }
      setRun({ ...current, bytesDone: file.size, state: 'done' });
    } catch (err) {
      if (!(err instanceof ReauthenticationCancelled)) setError(err);
      setRun({ ...current, state: 'failed' });
    }
  };

  const running = run?.state === 'running';
  const counts = run?.report.counts ?? NO_COUNTS;
  const percent =
    run && run.size > 0
      ? Math.round((run.bytesDone / run.size) * 100)
      : run?.state === 'done'
        ? 100
        : 0;

  return (
    <>
      <PageTitle title="Import users" />
      <Stack maw={960}>
        <Text size="sm">
          One user a line, as JSON (NDJSON, the format of{' '}
          <Anchor component={Link} to="/users" underline="always">
            Export users
          </Anchor>
          ):{' '}
          <Code style={WRAP}>
            {'{"email":"ada@example.com","email_verified":true,"password_hash":"$2b$10$…"}'}
          </Code>
          . Passwords keep working: hashes are checked in their own scheme at each user’s next
          sign-in.
        </Text>
        <Alert
          variant="light"
          color="blue"
          title="From Auth0, Firebase, Supabase, Clerk, Cognito or Keycloak"
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
        >
          <Text size="sm">
            Their exports are converted by the command line, on a machine that reaches the database:{' '}
            <Code style={WRAP}>
              npm run cli -- users import --project {project ?? '<project id>'} --file export.json
              --format auth0
            </Code>{' '}
            (or <Code>firebase</Code>, <Code>supabase</Code>, <Code>clerk</Code>,{' '}
            <Code>cognito</Code>, <Code>keycloak</Code>). It prints the same report.
          </Text>
        </Alert>
        <Group align="flex-end" wrap="wrap">
          <ProjectSelect
            label="Project"
            placeholder="Choose a project"
            value={project}
            onChange={setProject}
            required
            miw={260}
            disabled={running}
          />
          <FileInput
            label="NDJSON file"
            placeholder="Choose a file"
            accept=".ndjson,.jsonl,.json,.txt,application/x-ndjson"
            value={file}
            onChange={setFile}
            clearable
            clearButtonProps={{ 'aria-label': 'Remove the file' }}
            required
            miw={260}
            disabled={running}
          />
        </Group>
        <Radio.Group
          label="A line whose email or external id is already a user"
          value={onConflict}
          onChange={(v) => setOnConflict(v)}
        >
          <Stack gap={6} mt={6}>
            <Radio value="skip" label="Skip it (the user stays as it is)" disabled={running} />
            <Radio
              value="update"
              label="Update the user with the line’s members (asks for your password: it may overwrite passwords and TOTP secrets)"
              disabled={running}
            />
            <Radio value="conflict" label="Report it as a conflict" disabled={running} />
          </Stack>
        </Radio.Group>
        <Checkbox
          label="Allow weak hashes (salted SHA-256, SHA-512, MD5)"
          checked={allowWeak}
          onChange={(e) => setAllowWeak(e.currentTarget.checked)}
          disabled={running}
        />
        <Checkbox
          label="Send user.created and user.updated webhook events for each user"
          checked={emitEvents}
          onChange={(e) => setEmitEvents(e.currentTarget.checked)}
          disabled={running}
        />
        <Checkbox
          label="The lines carry Firebase scrypt hashes"
          checked={firebaseOn}
          onChange={(e) => setFirebaseOn(e.currentTarget.checked)}
          disabled={running}
        />
        {firebaseOn && (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {FIREBASE_FIELDS.map(([key, label]) => (
              <TextInput
                key={key}
                label={label}
                value={firebase[key]}
                onChange={(e) => setFirebase({ ...firebase, [key]: e.currentTarget.value })}
                disabled={running}
              />
            ))}
          </SimpleGrid>
        )}
        <Group>
          <Button
            disabled={!project || !file || running}
            loading={running}
            onClick={() => void start()}
          >
            Import
          </Button>
          {running && (
            <Button variant="default" onClick={() => (stop.current = true)}>
              Stop after this batch
            </Button>
          )}
        </Group>
        <ProblemAlert error={error} />

        {run && (
          <Stack gap="sm" role="status" aria-live="polite" aria-label="Import progress">
            <Group justify="space-between">
              <Title order={2} size="h4">
                {run.state === 'running'
                  ? 'Importing…'
                  : run.state === 'done'
                    ? 'Import finished'
                    : run.state === 'stopped'
                      ? 'Import stopped'
                      : 'Import interrupted'}
              </Title>
              <Text size="sm" c="dimmed">
                {run.state === 'stopped' || run.state === 'failed'
                  ? `Lines after ${run.linesRead.toLocaleString('en')} were not sent.`
                  : `${percent} % of ${file?.name ?? 'the file'} imported`}
              </Text>
            </Group>
            <Progress value={percent} aria-label="Share of the file imported" animated={running} />
            <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }}>
              <Counter label="Lines read" value={run.linesRead} />
              {COUNT_LABELS.map(([key, label]) => (
                <Counter key={key} label={label} value={counts[key]} />
              ))}
            </SimpleGrid>
          </Stack>
        )}

        {run && run.state !== 'running' && (
          <Stack gap="xs">
            <Title order={2} size="h4">
              Report
            </Title>
            {run.report.errors.length === 0 ? (
              <Text size="sm">Every line went in.</Text>
            ) : (
              <>
                <Text size="sm">
                  {counts.rejected + counts.conflicts > run.report.errors.length
                    ? `The first ${run.report.errors.length.toLocaleString('en')} of ${(counts.rejected + counts.conflicts).toLocaleString('en')} problems; nothing of these lines was written, the other lines went in.`
                    : 'Nothing of these lines was written; the other lines went in.'}
                </Text>
                <ListTable
                  minWidth={640}
                  striped
                  verticalSpacing="xs"
                  aria-label="Lines not imported"
                  columns={['Line', 'Problem', 'Detail']}
                >
                  {run.report.errors.map((e, i) => (
                    <Table.Tr key={`${e.line}-${i}`}>
                      <Table.Td>{e.line}</Table.Td>
                      <Table.Td>
                        <Badge
                          variant="light"
                          color={e.type === 'conflict' ? 'yellow' : 'red'}
                          style={{ textTransform: 'none' }}
                        >
                          {e.type}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{e.detail}</Text>
                        {e.errors &&
                          Object.entries(e.errors).map(([field, messages]) => (
                            <Text size="sm" key={field}>
                              <Code>{field}</Code> {messages.join('; ')}
                            </Text>
                          ))}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </ListTable>
              </>
            )}
          </Stack>
        )}
      </Stack>
      {dialog}
    </>
  );
}
