/**
 * The real server as a process of its own (apps/server/src/main.ts, compiled once per run by
 * the server tests' global setup; through tsx when run without it), for tests
 * whose question is what happens to the process: bursts, kills, restarts, a second instance
 * on the same data folder. Its data lives in a DATA_DIR (PGlite) or, in the PostgreSQL pass
 * (DATABASE_URL), a database of its own made from the suite's template; `open()` reaches it
 * while the server is stopped.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { REPO_ROOT } from '../config';
import { type Database, openDatabase } from '../platform/db';
import { testDatabaseName } from './helper';
import { freePort } from './mosquitto';

const START_DEADLINE_MS = 120_000;

export interface ServerTarget {
  env: Record<string, string>;
  open(): Promise<Database>;
  cleanup(): Promise<void>;
}

export async function makeServerTarget(): Promise<ServerTarget> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'platform-process-'));
  const url = process.env.DATABASE_URL;
  const template = inject('pgTemplate');
  if (url && template) {
    const name = testDatabaseName();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    return {
      env: { DATA_DIR: dataDir, DATABASE_URL: target.toString() },
      open: () => openDatabase({ url: target.toString() }),
      cleanup: async () => {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  return {
    env: { DATA_DIR: dataDir },
    // main.ts keeps the embedded database in DATA_DIR/db
    open: () => openDatabase({ dataDir: path.join(dataDir, 'db') }),
    cleanup: () => rm(dataDir, { recursive: true, force: true }),
  };
}

/**
 * What node runs: the bundle the global setup compiled for this run (waiting for its build to
 * end the first time), as `npm start` runs it; main.ts through tsx when there is none.
 */
async function serverEntry(): Promise<string[]> {
  const build = inject('serverBuild');
  if (!build) return ['--import', 'tsx', path.join(REPO_ROOT, 'apps/server/src/main.ts')];
  const status = `${build}.status`;
  const deadline = Date.now() + START_DEADLINE_MS;
  while (!existsSync(status)) {
    if (Date.now() > deadline) throw new Error(`the server's build did not end: ${status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const { ok, output } = JSON.parse(readFileSync(status, 'utf8')) as { ok: boolean; output: string };
  if (!ok) throw new Error(`the server did not compile:\n${output}`);
  return ['--enable-source-maps', build];
}

export interface ServerProcess {
  url: string;
  mqttPort: number;
  child: ChildProcess;
  output(): string;
  alive(): boolean;
  /** SIGTERM, then SIGKILL after 30 s */
  stop(): Promise<void>;
}

/** SIGKILL to the server and its process group */
export function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode != null || child.signalCode != null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Spawns the server with these variables over quiet, embedded defaults; does not wait.
 * `nodeArgs` go to node (e.g. a smaller stack, which turns any recursion that grows with the
 * input into a crash a test can see).
 */
export async function spawnServer(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  const port = await freePort();
  const mqttPort = await freePort();
  // node itself (not the tsx binary, which runs the server in a child of its own and cannot
  // relay SIGKILL); its own process group, so `killGroup` reaches anything it starts
  const child = spawn(process.execPath, [...nodeArgs, ...(await serverEntry())], {
    cwd: REPO_ROOT,
    detached: true,
    env: {
      ...process.env,
      DATABASE_URL: '',
      MQTT_URL: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      MQTT_PORT: String(mqttPort),
      SEED_DEMO: 'false',
      DEMO_PUBLISHER: 'off',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk) => {
    out += chunk.toString();
  });
  return {
    url: `http://127.0.0.1:${port}`,
    mqttPort,
    child,
    output: () => out,
    alive: () => child.exitCode == null && child.signalCode == null,
    stop: async () => {
      if (child.exitCode != null || child.signalCode != null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => killGroup(child), 30_000);
      await exited(child);
      clearTimeout(timer);
    },
  };
}

/** Spawns the server and waits until it listens. */
export async function startServerProcess(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  const server = await spawnServer(env, nodeArgs);
  const deadline = Date.now() + START_DEADLINE_MS;
  while (!server.output().includes('is running at')) {
    if (!server.alive()) throw new Error(`server exited early:\n${server.output()}`);
    if (Date.now() > deadline) {
      killGroup(server.child);
      throw new Error(`server did not start:\n${server.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return server;
}

/** Stops a server a test left running, whatever state it is in. */
export async function stopIfRunning(server: ServerProcess | null): Promise<void> {
  if (server?.alive()) {
    killGroup(server.child);
    await exited(server.child);
  }
}
