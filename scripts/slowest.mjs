// The ten slowest browser tests and the ten slowest API test files of this run, printed under the stage
// table (scripts/stages.sh) from the reports the runs wrote to reports/: Playwright's JSON report and
// api/test/file-times-reporter.ts's. A report older than the run (a stage that did not get that far)
// is left out. Usage: node scripts/slowest.mjs <the run's start, in seconds since the epoch>
import { readFileSync, statSync } from 'node:fs';

const runStart = Number(process.argv[2] ?? 0) * 1000;
const SHOWN = 10;

function reportOfThisRun(file) {
  try {
    if (statSync(file).mtimeMs < runStart) return undefined;
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function table(heading, columns, rows) {
  console.log(`\n${heading}`);
  console.log(`| ${'Seconds'.padStart(8)} | ${columns[0].padEnd(8)} | ${columns[1]}`);
  console.log(`|${'-'.repeat(10)}|${'-'.repeat(10)}|${'-'.repeat(70)}`);
  for (const [seconds, second, name] of rows) {
    console.log(`| ${seconds.toFixed(1).padStart(8)} | ${String(second).padEnd(8)} | ${name}`);
  }
}

/** Every test of Playwright's JSON report, through its nested suites, with its project and time. */
function* browserTests(suite) {
  for (const spec of suite.specs ?? []) {
    // A test that did not run (skipped, or a `--list`'s report) has no results.
    for (const test of spec.tests.filter((test) => test.results.length > 0)) {
      const seconds = test.results.reduce((sum, result) => sum + result.duration, 0) / 1000;
      yield { seconds, project: test.projectName, name: `${spec.file}:${spec.line} › ${spec.title}` };
    }
  }
  for (const inner of suite.suites ?? []) yield* browserTests(inner);
}

const browser = reportOfThisRun('reports/browser-tests.json');
if (browser) {
  const tests = browser.suites.flatMap((suite) => [...browserTests(suite)]);
  const slowest = tests.sort((a, b) => b.seconds - a.seconds).slice(0, SHOWN);
  const total = tests.reduce((sum, test) => sum + test.seconds, 0);
  table(
    `Slowest browser tests (${tests.length} tests run, ${Math.round(total)} worker-seconds in all)`,
    ['Project', 'Test'],
    slowest.map((test) => [test.seconds, test.project, test.name]),
  );
}

for (const database of ['pglite', 'postgresql']) {
  const api = reportOfThisRun(`reports/api-tests-${database}.json`);
  if (!api) continue;
  const slowest = [...api.files].sort((a, b) => b.seconds - a.seconds).slice(0, SHOWN);
  const tests = api.files.reduce((sum, file) => sum + file.tests, 0);
  table(
    `Slowest API test files on ${database === 'pglite' ? 'PGlite' : 'PostgreSQL'} (${api.files.length} files, ${tests} tests)`,
    ['Tests', 'File'],
    slowest.map((file) => [file.seconds, file.tests, file.file]),
  );
}
