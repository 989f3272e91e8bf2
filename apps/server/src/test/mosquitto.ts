/**
 * A Mosquitto of a test's own: the configuration docs/mqtt-broker.md recommends (read from that
 * file, so the documentation and the tests cannot drift apart), on a free port of 127.0.0.1,
 * with a fresh dynamic-security file whose only account is the server's (an admin made by
 * `mosquitto_ctrl dynsec init`). The server provisions everything else.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../config';

export const MOSQUITTO_DOC = path.join(REPO_ROOT, 'docs/mqtt-broker.md');
const CONF_MARKER = '<!-- mosquitto.conf -->';

export interface Mosquitto {
  /** the server's MQTT_URL: the dynsec admin account's credentials included */
  url: string;
  /** the address devices use, without credentials */
  address: string;
  port: number;
  /** everything Mosquitto logged so far */
  output(): string;
  stop(): Promise<void>;
}

/** The recommended mosquitto.conf, as docs/mqtt-broker.md shows it. */
export function recommendedConfig(): string {
  const doc = readFileSync(MOSQUITTO_DOC, 'utf8');
  const at = doc.indexOf(CONF_MARKER);
  const block = at >= 0 ? /```conf\n([\s\S]*?)```/.exec(doc.slice(at)) : null;
  if (!block) throw new Error(`${MOSQUITTO_DOC} has no mosquitto.conf block after ${CONF_MARKER}`);
  return block[1]!;
}

function pluginPath(): string | null {
  const line = /^plugin (\S+)$/m.exec(recommendedConfig());
  return line && existsSync(line[1]!) ? line[1]! : null;
}

/** Whether Mosquitto 2 and its dynamic-security plugin are installed here. */
export function mosquittoAvailable(): boolean {
  const found = spawnSync('sh', ['-c', 'command -v mosquitto && command -v mosquitto_ctrl'], {
    stdio: 'ignore',
  });
  return found.status === 0 && pluginPath() !== null;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startMosquitto(): Promise<Mosquitto> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mosquitto-'));
  const port = await freePort();
  const adminPassword = randomBytes(18).toString('base64url');
  const dynsec = path.join(dir, 'dynamic-security.json');
  const init = spawnSync('mosquitto_ctrl', ['dynsec', 'init', dynsec, 'smartdata-server', adminPassword], {
    encoding: 'utf8',
  });
  if (init.status !== 0) throw new Error(`mosquitto_ctrl dynsec init failed: ${init.stderr}${init.stdout}`);
  const config = recommendedConfig()
    .replace(/^listener 1883.*$/m, `listener ${port} 127.0.0.1`)
    .replace(/^plugin_opt_config_file .*$/m, `plugin_opt_config_file ${dynsec}`);
  const confPath = path.join(dir, 'mosquitto.conf');
  await writeFile(confPath, config);
  // run as root, Mosquitto drops to its own user, which must read and write the dynsec file
  if (process.getuid?.() === 0) {
    const owner = spawnSync('chown', ['-R', 'mosquitto', dir]);
    if (owner.status !== 0) throw new Error('cannot give the test broker files to the mosquitto user');
  }
  const child: ChildProcess = spawn('mosquitto', ['-c', confPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk) => {
    out += chunk.toString();
  });
  const deadline = Date.now() + 15_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null) throw new Error(`mosquitto exited:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`mosquitto did not listen on ${port}:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `mqtt://smartdata-server:${adminPassword}@127.0.0.1:${port}`,
    address: `mqtt://127.0.0.1:${port}`,
    port,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
