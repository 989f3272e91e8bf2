/**
 * Once before the browser tests:
 * - compiles the server (harness.ts runs what `npm start` runs);
 * - seeds the demo company once into a template data folder: the compiled server starts on an
 *   empty folder with SEED_DEMO=true, migrates and seeds it, and is stopped cleanly before it
 *   has done anything else (no demo gateways, no SIM sync, no demo publisher). Each test file's
 *   `startServer()` then starts on its own copy of that folder, the state a person has on the
 *   second start of a freshly seeded platform. Copying the folder takes well under a second;
 *   migrating and seeding takes many.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Start the compiled server on an empty folder, wait until it has seeded, stop it cleanly. */
async function seedTemplate(dataDir: string): Promise<void> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--enable-source-maps', path.join(ROOT, 'apps/server/dist/main.mjs')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: '',
        HOST: '127.0.0.1',
        PORT: String(port),
        MQTT_PORT: '0',
        DATA_DIR: dataDir,
        SEED_DEMO: 'true',
        LOG_LEVEL: 'warn',
        // the template holds the seed and nothing a running platform adds afterwards: each
        // file's own server starts these (and its first SIM sync) on its copy
        DEMO_PUBLISHER: 'off',
        DEMO_GATEWAYS: 'off',
        SIM_CARRIER_ADAPTER: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk) => {
    out += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // seconds on a quiet machine; a busy one (other work sharing its cores) takes minutes
  const deadline = Date.now() + 600_000;
  while (!out.includes('is running at')) {
    if (child.exitCode != null) throw new Error(`the seeding server exited early:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the seeding server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!out.includes('demo logins (seeded just now)'))
    throw new Error(`the seeding server did not seed the demo company:\n${out}`);
  // the server takes SIGTERM as a clean stop once its start-up code has finished, which is
  // after it printed the block above: an answer to a request comes from a later turn of its
  // event loop, so by then it has
  for (;;) {
    const answered = await fetch(`http://127.0.0.1:${port}/general/docs/json`).then(
      (response) => response.arrayBuffer().then(() => true),
      () => false,
    );
    if (answered) break;
    if (child.exitCode != null) throw new Error(`the seeding server exited early:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the seeding server did not answer:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGTERM');
  // a clean stop closes the database (its files complete) and releases the folder's lock
  const code = await exited;
  if (code !== 0) throw new Error(`the seeding server did not stop cleanly (exit ${code}):\n${out}`);
}

/** Compile the server and seed a template into `template` (a folder that does not exist yet). */
async function prepare(template: string): Promise<void> {
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs')], {
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('could not compile the server (npm run build:server)');
  await seedTemplate(template);
}

/**
 * With E2E_TEMPLATE (set by `npm test`, which runs the browser files as a queue of vitest runs,
 * one file each, on two workers), the first run prepares that folder and marks it ready, and
 * every later run starts on it as it is: the compile and seeding happen once per `npm test`,
 * and `npm test` removes the folder. Without it, each run prepares a template of its own.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const shared = process.env.E2E_TEMPLATE;
  if (shared) {
    const ready = `${shared}.ready`;
    if (!existsSync(ready)) {
      rmSync(shared, { recursive: true, force: true });
      await prepare(shared);
      writeFileSync(ready, new Date().toISOString());
    }
    project.provide('e2eDemoTemplate', shared);
    return () => {};
  }
  const root = mkdtempSync(path.join(os.tmpdir(), 'platform-e2e-template-'));
  const template = path.join(root, 'data');
  try {
    await prepare(template);
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  project.provide('e2eDemoTemplate', template);
  return () => rmSync(root, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** the data folder seeded with the demo company (zh) that each file's server starts on a copy of */
    e2eDemoTemplate?: string;
  }
}
