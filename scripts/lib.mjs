// Helpers for the two README commands: install what a fresh clone needs, run steps.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
  return res.status ?? 1;
}

/** npm ci when node_modules is missing or older than the lock file. */
export function ensureDependencies() {
  const modules = path.join(ROOT, 'node_modules');
  const lock = path.join(ROOT, 'package-lock.json');
  const marker = path.join(modules, '.package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('Installing dependencies (npm ci)…');
  // errors only: on Node 20 a few packages warn that they prefer Node 22+, which is noise here
  if (run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error']) !== 0)
    throw new Error('npm ci failed');
}

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'e2e') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Build the web app when dist is missing or older than its sources. */
export function ensureWebBuild({ force = false } = {}) {
  const index = path.join(ROOT, 'apps/web/dist/index.html');
  const sources = Math.max(
    newestMtime(path.join(ROOT, 'apps/web')),
    newestMtime(path.join(ROOT, 'packages/domain/src')),
  );
  if (!force && existsSync(index) && statSync(index).mtimeMs >= sources) return 0;
  console.log('Building the web app…');
  // warnings (a chunk over 500 kB) still show; the list of every file written does not
  return run('npm', ['run', 'build', '--silent', '-w', 'apps/web', '--', '--logLevel', 'warn']);
}

/**
 * The server's bundle, compiled again only when something it is made of is newer than it: the
 * sources it bundles (server, domain, gateway simulator, bench server), the manifests, the lock
 * file and this script. A restart of `npm start` on unchanged sources then loads neither esbuild
 * nor its service process (~75 MB that stayed beside the running server).
 */
export async function ensureServerBuild() {
  const main = path.join(ROOT, 'apps/server/dist/main.mjs');
  if (existsSync(main)) {
    const inputs = [
      newestMtime(path.join(ROOT, 'apps/server/src')),
      newestMtime(path.join(ROOT, 'packages/domain/src')),
      newestMtime(path.join(ROOT, 'apps/gateway-sim/src')),
      newestMtime(path.join(ROOT, 'bench')),
      ...[
        'package.json',
        'package-lock.json',
        'apps/server/package.json',
        'packages/domain/package.json',
        'apps/gateway-sim/package.json',
        'bench/package.json',
        'scripts/lib.mjs',
      ].map((file) => (existsSync(path.join(ROOT, file)) ? statSync(path.join(ROOT, file)).mtimeMs : 0)),
    ];
    if (statSync(main).mtimeMs >= Math.max(...inputs)) return main;
  }
  return buildServer();
}

/**
 * Compiles the server for running (`npm start`, the browser tests, the benchmarks): one ES
 * module per entry in apps/server/dist, TypeScript and the workspace's own packages bundled in,
 * installed packages left as imports. Node then runs plain JavaScript: no TypeScript loader at
 * start-up or in memory. Both bundles live in apps/server/dist so the server finds its
 * migrations beside them (apps/server/src/config.ts SERVER_ROOT). Takes well under a second.
 * `mainAs`: compile the server alone, as apps/server/dist/<mainAs>.mjs (the server tests' own
 * copy, which a browser-test build of main.mjs running beside them never overwrites).
 */
export async function buildServer({ mainAs } = {}) {
  const { build, stop } = await import('esbuild');
  const external = new Set();
  for (const file of [
    'package.json',
    'apps/server/package.json',
    'packages/domain/package.json',
    'apps/gateway-sim/package.json',
    'bench/package.json',
  ]) {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
    for (const field of ['dependencies', 'devDependencies']) {
      for (const name of Object.keys(manifest[field] ?? {})) {
        if (!name.startsWith('@platform/')) external.add(name);
      }
    }
  }
  await build({
    absWorkingDir: ROOT,
    entryPoints: mainAs
      ? { [mainAs]: 'apps/server/src/main.ts' }
      : {
          main: 'apps/server/src/main.ts',
          'bench-server': 'bench/server.ts',
          'fleet-sim': 'bench/fleet-sim.ts',
        },
    outdir: 'apps/server/dist',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    external: [...external].flatMap((name) => [name, `${name}/*`]),
    logLevel: 'warning',
  });
  // esbuild's service process would otherwise live as long as this one (`npm start`: as long as
  // the server)
  await stop();
  return path.join(ROOT, `apps/server/dist/${mainAs ?? 'main'}.mjs`);
}

/**
 * What failed in a vitest JSON report, one line each (file, test, the first line of its
 * message), so the end of the output says which test failed even when the log is cut.
 */
export function failuresOf(json) {
  const firstLine = (messages) =>
    String(messages?.[0] ?? '')
      .split('\n')
      .find((line) => line.trim())
      ?.trim()
      .slice(0, 200) ?? '';
  const lines = [];
  for (const file of json.testResults ?? []) {
    const where = path.relative(ROOT, file.name);
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failedTests) lines.push(`${where} > ${t.fullName}: ${firstLine(t.failureMessages)}`);
    if (file.status === 'failed' && failedTests.length === 0)
      lines.push(`${where}: ${firstLine([file.message])}`);
  }
  return lines;
}
