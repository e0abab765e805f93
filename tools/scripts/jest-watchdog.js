// A Jest reporter that ends a run in which one test file stays unfinished past a limit.
//
// Jest's testTimeout ends a test that waits too long, but not a file whose worker stopped
// answering (a worker restarted for its memory that never picks its file up again, a blocked
// event loop): the run then waits until CI's own limit kills it, with nothing to say which file.
// This reporter, in Jest's parent process, notes when each file starts and ends. When a file has
// run for longer than GATEHOUSE_FILE_LIMIT_S seconds (default 600; the slowest file takes about
// two minutes), it names the file, writes the results of the files that finished to the run's
// --outputFile with a `watchdog` entry (the stuck files, the finished ones), kills Jest's workers
// and what they started, and ends the run with status 1. run-jest.js then runs the files that did
// not finish once more, in a new Jest run whose results count like any other.
const fs = require('node:fs');

const LIMIT_MS = Number(process.env.GATEHOUSE_FILE_LIMIT_S || 600) * 1000;

/** Every process below `pid`, deepest first. */
function descendants(pid) {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  const out = [];
  const walk = (p) => {
    for (const c of children.get(p) ?? []) {
      walk(c);
      out.push(c);
    }
  };
  walk(pid);
  return out;
}

/** One file's result in the shape of Jest's --json output (what sum-results.js reads). */
function jsonResult(result) {
  const failed = result.numFailingTests > 0 || Boolean(result.testExecError);
  return {
    name: result.testFilePath,
    status: failed ? 'failed' : 'passed',
    message: result.failureMessage ?? '',
    assertionResults: result.testResults.map((a) => ({ fullName: a.fullName, status: a.status })),
  };
}

class JestWatchdog {
  constructor(globalConfig) {
    this.outputFile = globalConfig.outputFile;
    this.running = new Map();
    this.finished = [];
    this.timer = setInterval(() => this.check(), 5000);
    this.timer.unref();
  }

  onTestFileStart(test) {
    this.running.set(test.path, Date.now());
  }

  onTestFileResult(test, result) {
    this.running.delete(test.path);
    this.finished.push(result);
  }

  onRunComplete() {
    clearInterval(this.timer);
  }

  check() {
    const now = Date.now();
    const stuck = [...this.running].filter(([, t]) => now - t > LIMIT_MS).map(([file]) => file);
    if (!stuck.length) return;
    clearInterval(this.timer);
    for (const file of stuck)
      process.stderr.write(
        `\nwatchdog: ${file} has not finished after ${Math.round(LIMIT_MS / 1000)} s; ending this run\n`,
      );
    const results = this.finished.map(jsonResult);
    if (this.outputFile) {
      fs.writeFileSync(
        this.outputFile,
        JSON.stringify({
          numPassedTests: this.finished.reduce((n, r) => n + r.numPassingTests, 0),
          numFailedTests: this.finished.reduce((n, r) => n + r.numFailingTests, 0),
          testResults: results,
          watchdog: { stuck, finished: results.map((r) => r.name) },
        }),
      );
    }
    for (const pid of descendants(process.pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    process.exit(1);
  }
}

module.exports = JestWatchdog;
module.exports.descendants = descendants;
module.exports.jsonResult = jsonResult;
