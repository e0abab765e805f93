import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The watchdog reporter (jest-watchdog.js) ends a Jest run in which a file stays unfinished: the
 * fixture's second file blocks its worker's event loop, which Jest's testTimeout cannot end.
 */
describe('jest watchdog', () => {
  it('names the stuck file, keeps the finished results and ends the run', () => {
    const fixture = join(__dirname, 'fixtures', 'watchdog');
    const output = join(mkdtempSync(join(tmpdir(), 'watchdog-')), 'out.json');
    const started = Date.now();
    const r = spawnSync(
      process.execPath,
      [
        require.resolve('jest/bin/jest'),
        '-c',
        join(fixture, 'jest.config.cjs'),
        '--reporters=default',
        `--reporters=${join(__dirname, 'jest-watchdog.js')}`,
        '--json',
        '--outputFile',
        output,
      ],
      {
        // eslint-disable-next-line no-restricted-properties -- the child Jest needs PATH and HOME
        env: { ...process.env, GATEHOUSE_FILE_LIMIT_S: '4' },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(r.status).toBe(1);
    expect(Date.now() - started).toBeLessThan(40_000);
    expect(r.stderr).toContain(`watchdog: ${join(fixture, 'hangs.fixture.js')} has not finished`);
    const result = JSON.parse(readFileSync(output, 'utf8'));
    expect(result.watchdog.stuck).toEqual([join(fixture, 'hangs.fixture.js')]);
    expect(result.watchdog.finished).toEqual([join(fixture, 'finishes.fixture.js')]);
    expect(result.numPassedTests).toBe(1);
    expect(result.numFailedTests).toBe(0);
  }, 60_000);
});
