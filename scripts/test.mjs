// `npm test`: every check the project has, ending with one line `N passed, N failed`.
//   lint + format (biome), typecheck (tsc), unit and server tests (vitest: domain, server,
//   gateway simulator),
//   web build, the login page's JavaScript budget (scripts/bundle-budget.mjs), browser tests
//   (Chromium; installed from Debian when missing and possible).
// Options: --skip-e2e (unit, server and static checks only).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureDependencies, ensureWebBuild, ROOT, run } from './lib.mjs';

const skipE2e = process.argv.includes('--skip-e2e');
const results = [];
const reportDir = path.join(ROOT, '.test-artifacts');
mkdirSync(reportDir, { recursive: true });

function step(name, ok) {
  results.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1 });
  console.log(`\n== ${name}: ${ok ? 'ok' : 'FAILED'}\n`);
}

function vitest(name, args, env = {}) {
  const report = path.join(reportDir, `${name}.json`);
  const status = run(
    'npx',
    ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    {
      env: { ...process.env, ...env },
    },
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
  results.push({ name, passed, failed });
  console.log(`\n== ${name}: ${passed} passed, ${failed} failed\n`);
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

ensureDependencies();
step('lint and format (biome)', run('npx', ['biome', 'check', '.']) === 0);
step('typecheck (tsc)', run('npm', ['run', 'typecheck']) === 0);
vitest('unit-and-server', [
  '--project',
  'domain',
  '--project',
  'server',
  '--project',
  'gateway-sim',
  '--project',
  'scripts',
]);

if (!skipE2e) {
  const built = ensureWebBuild({ force: true }) === 0;
  step('web build (vite)', built);
  if (built) {
    // ≤ 250 kB gzip of JavaScript before the login page is usable; prints the figure and the
    // biggest chunks either way
    step('login page JavaScript budget', run('node', ['scripts/bundle-budget.mjs']) === 0);
  }
  if (!built) {
    results.push({ name: 'browser tests', passed: 0, failed: 1 });
  } else if (!chromiumAvailable()) {
    console.log('\n!! Chromium is missing and cannot be installed here: browser tests NOT run.\n');
    results.push({ name: 'browser tests (not run: no chromium)', passed: 0, failed: 1 });
  } else {
    vitest('browser', ['--config', 'apps/web/e2e/vitest.config.ts']);
  }
}

const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log('\nSummary:');
for (const r of results)
  console.log(`  ${r.failed ? 'FAIL' : 'ok  '}  ${r.name}: ${r.passed} passed, ${r.failed} failed`);
writeFileSync(path.join(reportDir, 'summary.json'), JSON.stringify({ passed, failed, results }, null, 2));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
