// `npm test`: every check the project has, ending with one line `N passed, N failed`.
//   lint + format (biome), typecheck (tsc), unit and server tests (vitest: domain, server,
//   gateway simulator, the web app's pure client logic),
//   web build, the login page's JavaScript budget (scripts/bundle-budget.mjs), browser tests
//   (Chromium; installed from Debian when missing and possible).
// Two lanes share the machine's cores from the start, so that neither waits on the other's idle
// moments: the unit and server tests (their output shows as it comes), then, with --postgres,
// the server suite once more on PostgreSQL; and the web build, the browser tests on it as soon
// as it is built, lint and typecheck. The output of every step but the first is kept and shown
// whole, each under its name, once the tests are done.
// Options: --skip-e2e (unit, server and static checks only), --serial (one step at a time),
//   --postgres=URL (CI: the server tests once more on that PostgreSQL and, for the MQTT tests,
//   on a Mosquitto each test file starts).
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDependencies, failuresOf, ROOT, run } from './lib.mjs';

const skipE2e = process.argv.includes('--skip-e2e');
const serial = process.argv.includes('--serial');
const postgresUrl = process.argv.find((a) => a.startsWith('--postgres='))?.slice('--postgres='.length);
const startedAt = Date.now();
const results = [];
const reportDir = path.join(ROOT, '.test-artifacts');
mkdirSync(reportDir, { recursive: true });

const seconds = (ms) => `${Math.round(ms / 1000)} s`;

function step(name, ok, ms) {
  results.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1, seconds: Math.round(ms / 1000) });
  console.log(`\n== ${name}: ${ok ? 'ok' : 'FAILED'} (${seconds(ms)})\n`);
}

/** Runs a command on the terminal, without blocking: the promise of its exit status. */
function runInherited(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/**
 * A vitest run with a JSON report: its tests passed and failed (not yet in `results`). With
 * `capture`, its output is kept (in `output`) instead of shown, for a run beside another.
 */
async function vitest(name, args, { env = {}, capture = false, file = name } = {}) {
  const report = path.join(reportDir, `${file}.json`);
  rmSync(report, { force: true });
  const started = Date.now();
  const command = [
    'npx',
    ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    { env: { ...process.env, ...env } },
  ];
  let status;
  let output = '';
  if (capture) ({ status, output } = await runCaptured(...command));
  else status = await runInherited(...command);
  let passed = 0;
  let failed = 0;
  let failures = [];
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed = json.numPassedTests ?? 0;
    failed =
      (json.numFailedTests ?? 0) +
      (json.testResults ?? []).filter((f) => f.status === 'failed' && f.assertionResults?.length === 0)
        .length;
    failures = failuresOf(json);
  }
  if (status !== 0 && failed === 0) failed = 1; // the runner itself failed (setup error, no tests)
  return { name, passed, failed, failures, output, seconds: Math.round((Date.now() - started) / 1000) };
}

function record({ output, ...result }) {
  if (output) console.log(`\n-- ${result.name}:\n${output.trimEnd()}`);
  results.push(result);
  console.log(
    `\n== ${result.name}: ${result.passed} passed, ${result.failed} failed (${result.seconds} s)\n`,
  );
}

function chromiumAvailable() {
  if (existsSync('/usr/bin/chromium')) return true;
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!isRoot || !hasApt) return false;
  console.log("Installing Debian's chromium for the browser tests…");
  run('sh', [
    '-c',
    'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null',
  ]);
  return existsSync('/usr/bin/chromium');
}

/**
 * Runs a command with its output kept (stdout and stderr interleaved as they came), for a step
 * that runs beside another whose output is on the terminal: the promise of its exit status.
 */
function runCaptured(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const chunks = [];
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => {
      chunks.push(Buffer.from(`${error.message}\n`));
      resolve({ status: 1, output: Buffer.concat(chunks).toString() });
    });
    child.on('close', (code) => resolve({ status: code ?? 1, output: Buffer.concat(chunks).toString() }));
  });
}

/**
 * The web build (and the login page's budget, checked on it), then lint and typecheck, one
 * after another: each step's name, whether it passed, and its output (printed later, or at once
 * with --serial). `onBuilt` hears whether the build succeeded as soon as it is known.
 */
async function staticSteps(runStep, onBuilt = () => {}) {
  const done = [];
  const add = async (name, cmd, args) => {
    const started = Date.now();
    const { status, output } = await runStep(cmd, args);
    done.push({ name, ok: status === 0, output, ms: Date.now() - started });
    return status === 0;
  };
  if (!skipE2e) {
    // warnings (a chunk over 500 kB) still show; the list of every file written does not
    const built = await add('web build (vite)', 'npm', [
      'run',
      'build',
      '--silent',
      '-w',
      'apps/web',
      '--',
      '--logLevel',
      'warn',
    ]);
    onBuilt(built);
    // ≤ 250 kB gzip of JavaScript before the login page is usable; prints the figure and the
    // biggest chunks either way
    if (built) await add('login page JavaScript budget', 'node', ['scripts/bundle-budget.mjs']);
  }
  await add('lint and format (biome)', 'npx', ['biome', 'check', '.']);
  await add('typecheck (tsc)', 'npm', ['run', 'typecheck']);
  return done;
}

function printStatic(done) {
  for (const { name, ok, output, ms } of done) {
    if (output) console.log(`\n-- ${name}:\n${output.trimEnd()}`);
    step(name, ok, ms);
  }
}

ensureDependencies();
const unitArgs = [
  '--project',
  'domain',
  '--project',
  'server',
  '--project',
  'server-mocking',
  '--project',
  'gateway-sim',
  '--project',
  'web',
  '--project',
  'scripts',
];
// asked first: installing Chromium (when missing) blocks this process for a minute
const hasChromium = skipE2e || chromiumAvailable();

/** The server suite on PostgreSQL and Mosquitto (--postgres). */
const postgresSuite = (capture) =>
  vitest('server suite on PostgreSQL', ['--project', 'server', '--project', 'server-mocking'], {
    env: { DATABASE_URL: postgresUrl, MQTT_TEST_BROKER: 'mosquitto' },
    capture,
    file: 'server-postgres',
  });

/**
 * The browser test files, the longest first: by the seconds each took in the last run here
 * (.test-artifacts/browser-times.json) when known, else by size (about a second per 100 bytes).
 */
function e2eFiles() {
  const dir = path.join(ROOT, 'apps/web/e2e');
  let times = {};
  try {
    times = JSON.parse(readFileSync(path.join(reportDir, 'browser-times.json'), 'utf8'));
  } catch {
    // a clean clone: sizes only
  }
  const weight = (file) => times[file] ?? statSync(path.join(dir, file)).size / 100;
  return readdirSync(dir)
    .filter((file) => file.endsWith('.e2e.ts'))
    .sort((a, b) => weight(b) - weight(a));
}

/**
 * How many browser files run at once: beside the other lane (the unit and server tests, then the
 * server suite on PostgreSQL) and once it is done. A file spends most of its time waiting on
 * its pages and its server (alone, it keeps about a quarter of two cores busy), so one file at
 * a time made the browser lane the longest by far, however idle the machine: two beside the
 * other lane, then two per core (at most four, and no more than the memory holds: a file's
 * server, browser and runner take about 1.5 GB at their peak).
 */
function browserWorkers() {
  const cores = os.availableParallelism();
  const byMemory = Math.max(1, Math.floor(os.totalmem() / (1.5 * 1024 ** 3)));
  const tail = Math.max(1, Math.min(4, 2 * cores, byMemory));
  return { beside: Math.min(tail, cores >= 2 ? 2 : 1), tail };
}

/**
 * The browser tests on the web just built, or the reason they did not run. The files are a
 * queue, one vitest run each, taken by `browserWorkers().beside` workers from the start and by
 * more once `second` resolves (when the other lane is done). The first run compiles the
 * server and seeds the demo template (E2E_TEMPLATE); the other workers start once it is ready.
 * Without `second`: one file at a time.
 */
async function browser(built, capture, second = null) {
  if (skipE2e) return null;
  if (!built) return { name: 'browser tests (not run: the web build failed)', passed: 0, failed: 1 };
  if (!hasChromium) {
    console.log('\n!! Chromium is missing and cannot be installed here: browser tests NOT run.\n');
    return { name: 'browser tests (not run: no chromium)', passed: 0, failed: 1 };
  }
  const started = Date.now();
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'platform-e2e-'));
  const template = path.join(scratch, 'data');
  const queue = e2eFiles();
  const runs = [];
  const times = {};
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const result = await vitest(
        `browser ${file}`,
        ['--config', 'apps/web/e2e/vitest.config.ts', `apps/web/e2e/${file}`],
        { env: { E2E_TEMPLATE: template }, capture, file: `browser-${file.replace(/\.e2e\.ts$/, '')}` },
      );
      times[file] = result.seconds;
      runs.push(result);
    }
  };
  const { beside, tail } = second ? browserWorkers() : { beside: 1, tail: 1 };
  const templateReady = async () => {
    while (queue.length && !existsSync(`${template}.ready`)) await new Promise((r) => setTimeout(r, 1000));
  };
  const workers = [worker()];
  for (let i = 1; i < beside; i++) workers.push(templateReady().then(worker));
  if (tail > beside)
    workers.push(
      second.then(async () => {
        await templateReady();
        return Promise.all(Array.from({ length: tail - beside }, worker));
      }),
    );
  await Promise.all(workers);
  rmSync(scratch, { recursive: true, force: true });
  writeFileSync(path.join(reportDir, 'browser-times.json'), JSON.stringify(times, null, 2));
  return {
    name: 'browser',
    passed: runs.reduce((n, r) => n + r.passed, 0),
    failed: runs.reduce((n, r) => n + r.failed, 0),
    failures: runs.flatMap((r) => r.failures),
    output: runs.map((r) => r.output).join('\n'),
    seconds: Math.round((Date.now() - started) / 1000),
  };
}

if (serial) {
  const staticDone = await staticSteps(async (cmd, args) => ({
    status: await runInherited(cmd, args),
    output: '',
  }));
  printStatic(staticDone);
  record(await vitest('unit-and-server', unitArgs));
  const browserResult = await browser(
    staticDone.some((d) => d.name === 'web build (vite)' && d.ok),
    false,
  );
  if (browserResult) record(browserResult);
  if (postgresUrl) record(await postgresSuite(false));
} else {
  console.log(
    'The web build, the browser tests, lint and typecheck run beside the unit and server tests' +
      `${postgresUrl ? ' (and the server suite on PostgreSQL after them)' : ''}; their output follows.`,
  );
  let browserRun = null;
  let otherLaneDone;
  const second = new Promise((resolve) => {
    otherLaneDone = resolve;
  });
  const staticRun = staticSteps(runCaptured, (built) => {
    browserRun = browser(built, true, second);
  });
  const unit = await vitest('unit-and-server', unitArgs);
  const postgres = postgresUrl ? await postgresSuite(true) : null;
  otherLaneDone();
  printStatic(await staticRun);
  record(unit);
  if (browserRun) {
    const result = await browserRun;
    if (result) record(result);
  }
  if (postgres) record(postgres);
}

console.log(`\nnpm test took ${seconds(Date.now() - startedAt)}`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log('\nSummary:');
for (const r of results)
  console.log(
    `  ${r.failed ? 'FAIL' : 'ok  '}  ${r.name}: ${r.passed} passed, ${r.failed} failed${r.seconds == null ? '' : ` (${r.seconds} s)`}${(r.failures ?? []).map((f) => `\n          ${f}`).join('')}`,
  );
writeFileSync(path.join(reportDir, 'summary.json'), JSON.stringify({ passed, failed, results }, null, 2));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
