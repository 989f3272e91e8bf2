// `npm test`: every check the project has, ending with one line `N passed, N failed`.
//   lint + format (biome), typecheck (tsc), unit and server tests (vitest: domain, server,
//   gateway simulator),
//   web build, the login page's JavaScript budget (scripts/bundle-budget.mjs), browser tests
//   (Chromium; installed from Debian when missing and possible).
// The static checks and the web build run beside the unit and server tests (whose output shows
// as it comes); theirs is shown whole, each under its name, once the tests are done. The
// browser tests run last, on the web just built.
// Options: --skip-e2e (unit, server and static checks only), --serial (one step at a time).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureDependencies, ROOT, run } from './lib.mjs';

const skipE2e = process.argv.includes('--skip-e2e');
const serial = process.argv.includes('--serial');
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

/** A vitest run with a JSON report: its tests passed and failed (not yet in `results`). */
async function vitest(name, args, env = {}) {
  const report = path.join(reportDir, `${name}.json`);
  rmSync(report, { force: true });
  const started = Date.now();
  const status = await runInherited(
    'npx',
    ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    { env: { ...process.env, ...env } },
  );
  let passed = 0;
  let failed = 0;
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed = json.numPassedTests ?? 0;
    failed =
      (json.numFailedTests ?? 0) +
      (json.testResults ?? []).filter((f) => f.status === 'failed' && f.assertionResults?.length === 0)
        .length;
  }
  if (status !== 0 && failed === 0) failed = 1; // the runner itself failed (setup error, no tests)
  return { name, passed, failed, seconds: Math.round((Date.now() - started) / 1000) };
}

function record(result) {
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
function runCaptured(cmd, args) {
  return new Promise((resolve) => {
    const chunks = [];
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
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
 * The static checks and the web build, one after another: each step's name, whether it
 * passed, and its output (printed later, or at once with --serial).
 */
async function staticSteps(runStep) {
  const done = [];
  const add = async (name, cmd, args) => {
    const started = Date.now();
    const { status, output } = await runStep(cmd, args);
    done.push({ name, ok: status === 0, output, ms: Date.now() - started });
    return status === 0;
  };
  await add('lint and format (biome)', 'npx', ['biome', 'check', '.']);
  await add('typecheck (tsc)', 'npm', ['run', 'typecheck']);
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
    // ≤ 250 kB gzip of JavaScript before the login page is usable; prints the figure and the
    // biggest chunks either way
    if (built) await add('login page JavaScript budget', 'node', ['scripts/bundle-budget.mjs']);
  }
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
  'gateway-sim',
  '--project',
  'scripts',
];
let staticDone;
if (serial) {
  staticDone = await staticSteps(async (cmd, args) => ({
    status: await runInherited(cmd, args),
    output: '',
  }));
  printStatic(staticDone);
  record(await vitest('unit-and-server', unitArgs));
} else {
  console.log(
    'Static checks and the web build run beside the unit and server tests; their output follows the tests.',
  );
  const [done, unit] = await Promise.all([staticSteps(runCaptured), vitest('unit-and-server', unitArgs)]);
  staticDone = done;
  printStatic(staticDone);
  record(unit);
}
const built = staticDone.some((d) => d.name === 'web build (vite)' && d.ok);

if (!skipE2e) {
  if (!built) {
    results.push({ name: 'browser tests', passed: 0, failed: 1 });
  } else if (!chromiumAvailable()) {
    console.log('\n!! Chromium is missing and cannot be installed here: browser tests NOT run.\n');
    results.push({ name: 'browser tests (not run: no chromium)', passed: 0, failed: 1 });
  } else {
    record(await vitest('browser', ['--config', 'apps/web/e2e/vitest.config.ts']));
  }
}

console.log(`\nnpm test took ${seconds(Date.now() - startedAt)}`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log('\nSummary:');
for (const r of results)
  console.log(
    `  ${r.failed ? 'FAIL' : 'ok  '}  ${r.name}: ${r.passed} passed, ${r.failed} failed${r.seconds == null ? '' : ` (${r.seconds} s)`}`,
  );
writeFileSync(path.join(reportDir, 'summary.json'), JSON.stringify({ passed, failed, results }, null, 2));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
