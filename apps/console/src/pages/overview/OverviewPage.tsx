/** The tenant at a glance: sign-ins, sign-ups, failed sign-ins and lockouts per day of the last 30 (all projects or one), live sessions and webhook delivery success. */
import { BarChart, LineChart } from '@mantine/charts';
import {
  Anchor,
  Box,
  Button,
  Center,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { unwrap } from '../../api/clients';
import type { components } from '../../api/control-plane';
import { useAdminApi } from '../../auth/AuthContext';
import { PageTitle } from '../../ui/PageTitle';
import { QueryState } from '../../ui/QueryState';
import { add, OTHER, TOP, topProjects, ZERO } from './project-totals';

type Stats = components['schemas']['StatsResponse'];
type Counts = components['schemas']['StatsTotalsResponse'];
type DayRow = Counts & { date: string; day: string };

const DAYS = 30;
const ALL = 'all';
// Drawn in this order, widest first: where lines meet (all at 0 on a quiet day) the narrower, dashed ones on top leave the wider visible round them.
const METRICS = [
  { name: 'sign_ins', label: 'Sign-ins', color: 'indigo.6', width: 5 },
  { name: 'sign_ups', label: 'Sign-ups', color: 'teal.6', width: 3.5, strokeDasharray: '10 4' },
  {
    name: 'failed_sign_ins',
    label: 'Failed sign-ins',
    color: 'orange.6',
    width: 2.5,
    strokeDasharray: '4 3',
  },
  { name: 'lockouts', label: 'Lockouts', color: 'red.7', width: 1.5, strokeDasharray: '1 3' },
] as const satisfies readonly {
  name: keyof Counts;
  label: string;
  color: string;
  width: number;
  strokeDasharray?: string;
}[];
const PROJECT_COLORS = [
  'indigo.6',
  'teal.6',
  'orange.6',
  'grape.6',
  'cyan.6',
  'pink.6',
  'lime.7',
  'blue.6',
  'red.6',
  'yellow.7',
];
/** Whole numbers only on a count axis (recharts would label 0.25, 0.5… for small counts). */
const COUNT_AXIS = { allowDecimals: false } as const;

/** Every UTC day from `from` to `to`, both included, as YYYY-MM-DD. */
function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end && out.length <= 366; t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** One row per day of the window (days without activity as zeros), for one project or all of them. */
function perDay(stats: Stats, projectId: string): DayRow[] {
  const byDate = new Map<string, Counts>();
  for (const row of stats.daily)
    if (projectId === ALL || row.project_id === projectId)
      byDate.set(row.date, add(byDate.get(row.date) ?? ZERO, row));
  return daysBetween(stats.from, stats.to).map((date) => ({
    date,
    day: date.slice(5),
    ...(byDate.get(date) ?? ZERO),
  }));
}

function totalsOf(rows: readonly Counts[]): Counts {
  return rows.reduce<Counts>((sum, row) => add(sum, row), ZERO);
}

function percent(rate: number | null): string {
  return rate === null ? '—' : `${(rate * 100).toFixed(rate === 1 || rate === 0 ? 0 : 1)} %`;
}

export default function OverviewPage() {
  const api = useAdminApi();
  const [project, setProject] = useState<string>(ALL);
  const stats = useQuery({
    queryKey: ['stats', DAYS],
    queryFn: () => unwrap(api.GET('/v1/admin/stats', { params: { query: { days: DAYS } } })),
  });
  return (
    <>
      <PageTitle title="Overview">
        <Button
          variant="default"
          size="xs"
          loading={stats.isFetching && !stats.isPending}
          onClick={() => void stats.refetch()}
        >
          Refresh
        </Button>
      </PageTitle>
      <QueryState query={stats} label="activity">
        {(data) => (
          <Activity
            stats={data}
            project={data.projects.some((p) => p.id === project) ? project : ALL}
            onProject={setProject}
          />
        )}
      </QueryState>
    </>
  );
}

function Activity({
  stats,
  project,
  onProject,
}: {
  stats: Stats;
  project: string;
  onProject: (id: string) => void;
}) {
  const rows = perDay(stats, project);
  const totals = project === ALL ? stats.totals : totalsOf(rows);
  const sessions =
    project === ALL
      ? stats.active_sessions
      : (stats.active_sessions_by_project.find((p) => p.project_id === project)?.count ?? 0);
  const deliveries = stats.webhook_deliveries;
  const projectName =
    project === ALL
      ? 'all projects'
      : (stats.projects.find((p) => p.id === project)?.name ?? project);
  const quiet = rows.every((r) => METRICS.every((m) => r[m.name] === 0));

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Text size="sm" c="dimmed">
          The last {DAYS} UTC days, {stats.from} to {stats.to}, of {projectName}.
        </Text>
        <Select
          label="Project"
          data={[
            { value: ALL, label: 'All projects' },
            ...stats.projects.map((p) => ({ value: p.id, label: p.name })),
          ]}
          value={project}
          onChange={(value) => onProject(value ?? ALL)}
          allowDeselect={false}
          w={{ base: '100%', xs: 260 }}
        />
      </Group>

      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
        {METRICS.map((m) => (
          <StatCard
            key={m.name}
            label={m.label}
            value={totals[m.name]}
            testId={`stat-${m.name}`}
            hint={`last ${DAYS} days`}
          />
        ))}
        <StatCard
          label="Active sessions"
          value={sessions}
          testId="stat-active_sessions"
          hint="live now"
        />
        <StatCard
          label="Webhook success"
          value={percent(deliveries.success_rate)}
          testId="stat-webhook_success_rate"
          hint={`${deliveries.succeeded} succeeded · ${deliveries.failed} failed · ${deliveries.pending} pending (all projects)`}
        />
      </SimpleGrid>

      <Paper withBorder p="md" component="section" aria-labelledby="overview-daily">
        <Title order={2} size="h4" mb="sm" id="overview-daily">
          Per day
        </Title>
        {quiet ? (
          <Center py="xl">
            <Text c="dimmed" data-testid="empty-state">
              No sign-in activity in the last {DAYS} days
              {project === ALL ? '' : ` in ${projectName}`}.
            </Text>
          </Center>
        ) : (
          <Chart
            caption={`Line chart: sign-ins, sign-ups, failed sign-ins and lockouts per day of ${projectName}; the numbers are in the table “Numbers per day” below.`}
          >
            <LineChart
              h={280}
              data={rows}
              dataKey="day"
              series={METRICS.map(({ name, label, color, ...m }) => ({
                name,
                label,
                color,
                ...('strokeDasharray' in m ? { strokeDasharray: m.strokeDasharray } : {}),
              }))}
              lineProps={(series) => ({
                strokeWidth: METRICS.find((m) => m.name === series.name)?.width ?? 2,
              })}
              curveType="monotone"
              withLegend
              withDots={false}
              tickLine="y"
              gridAxis="y"
              yAxisProps={COUNT_AXIS}
            />
          </Chart>
        )}
        <DailyTable rows={rows} />
      </Paper>

      {project === ALL && stats.projects.length > 0 && <ByProject stats={stats} />}
    </Stack>
  );
}

function StatCard({
  label,
  value,
  hint,
  testId,
}: {
  label: string;
  value: ReactNode;
  hint: string;
  testId: string;
}) {
  return (
    <Paper withBorder p="sm" component="section" aria-label={label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.3} data-testid={testId}>
        {value}
      </Text>
      <Text size="xs" c="dimmed">
        {hint}
      </Text>
    </Paper>
  );
}

/** A chart with its text alternative: the caption says what it shows and where its numbers are. */
function Chart({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <Box component="figure" m={0}>
      {children}
      <Text component="figcaption" size="xs" c="dimmed" mt="xs">
        {caption}
      </Text>
    </Box>
  );
}

function DailyTable({ rows }: { rows: DayRow[] }) {
  return (
    <Box component="details" mt="md">
      <Text component="summary" size="sm" fw={500}>
        Numbers per day
      </Text>
      <Table.ScrollContainer minWidth={480} type="native" mt="xs">
        <Table striped verticalSpacing={4} data-testid="daily-numbers">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Day (UTC)</Table.Th>
              {METRICS.map((m) => (
                <Table.Th scope="col" key={m.name} ta="right">
                  {m.label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...rows].reverse().map((r) => (
              <Table.Tr key={r.date}>
                <Table.Th scope="row" fw={400}>
                  {r.date}
                </Table.Th>
                {METRICS.map((m) => (
                  <Table.Td key={m.name} ta="right">
                    {r[m.name]}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Box>
  );
}

function ByProject({ stats }: { stats: Stats }) {
  const days = daysBetween(stats.from, stats.to);
  const { rows, other } = topProjects(stats);
  const shown = new Set(rows.map((r) => r.id));
  const series = [
    ...rows.filter((r) => r.totals.sign_ins > 0),
    ...(other && other.totals.sign_ins > 0 ? [other] : []),
  ];
  const data = days.map((date) => {
    const point: Record<string, string | number> = { day: date.slice(5) };
    for (const r of series) point[r.id] = 0;
    for (const r of stats.daily) {
      if (r.date !== date) continue;
      const key = shown.has(r.project_id) ? r.project_id : OTHER;
      if (key in point) point[key] = (point[key] as number) + r.sign_ins;
    }
    return point;
  });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="overview-projects">
      <Title order={2} size="h4" mb="sm" id="overview-projects">
        By project
      </Title>
      {other && (
        <Text size="sm" c="dimmed" mb="sm">
          The {TOP} most active of {stats.projects.length} projects; the other {other.count} are
          summed as “Other”.
        </Text>
      )}
      {series.length > 0 && (
        <Chart caption="Stacked bar chart: sign-ins per day and project; the totals per project are in the table below.">
          <BarChart
            h={240}
            data={data}
            dataKey="day"
            type="stacked"
            series={series.map((r, i) => ({
              name: r.id,
              label: r.name,
              color: r.id === OTHER ? 'gray.6' : PROJECT_COLORS[i % PROJECT_COLORS.length],
            }))}
            withLegend
            tickLine="y"
            gridAxis="y"
            yAxisProps={COUNT_AXIS}
          />
        </Chart>
      )}
      <Table.ScrollContainer minWidth={560} type="native" mt="md">
        <Table striped verticalSpacing={4} data-testid="by-project">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Project</Table.Th>
              {METRICS.map((m) => (
                <Table.Th scope="col" key={m.name} ta="right">
                  {m.label}
                </Table.Th>
              ))}
              <Table.Th scope="col" ta="right">
                Active sessions
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...rows, ...(other ? [other] : [])].map((p) => (
              <Table.Tr key={p.id} data-project-id={p.id}>
                <Table.Th scope="row" fw={500}>
                  {p.id === OTHER ? (
                    <Anchor component={Link} to="/projects" size="sm">
                      {p.name}
                    </Anchor>
                  ) : (
                    <Anchor component={Link} to={`/projects/${p.id}`} size="sm">
                      {p.name}
                    </Anchor>
                  )}
                </Table.Th>
                {METRICS.map((m) => (
                  <Table.Td key={m.name} ta="right" data-metric={m.name}>
                    {p.totals[m.name]}
                  </Table.Td>
                ))}
                <Table.Td ta="right" data-metric="active_sessions">
                  {p.sessions}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
