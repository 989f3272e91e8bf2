/**
 * One running platform per data folder. The embedded database (PGlite) has no lock of its
 * own: a second process that opens the same folder runs migrations and writes beside the first,
 * and the folder is then corrupt for good. So the embedded default holds a lock before it opens
 * anything, and a second instance refuses with a clear message.
 *
 * The lock is a listening local socket (a Unix socket file `instance.sock` in the data folder;
 * a named pipe keyed by the folder's path on Windows). The kernel holds it exactly as long as
 * the process lives: a clean stop, a crash or a kill -9 all release it, so a restart is never
 * refused by a lock left behind, and a busy event loop (PGlite runs on it) cannot make a live
 * lock look stale the way a refreshed lock file can. A file left by a killed process is
 * recognised by nobody answering on it, and replaced; the replacement happens under a short
 * exclusive guard file so two instances starting at the same moment cannot both take over.
 */
import { createHash } from 'node:crypto';
import { open, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

/** Unix socket paths are limited to about 104-108 bytes by the operating system */
const MAX_SOCKET_PATH = 100;
/** a takeover guard older than this was left by a process killed in the middle of a takeover */
const GUARD_STALE_MS = 10_000;

export class DataDirInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number | null,
  ) {
    super(
      `The data folder ${dataDir} is in use by another running platform${holderPid ? ` (process ${holderPid})` : ''}. ` +
        'Stop that one first, or give this one another DATA_DIR. Nothing was opened or changed.',
    );
    this.name = 'DataDirInUse';
  }
}

export interface InstanceLock {
  /** where the lock lives (a socket file or a pipe name) */
  address: string;
  release(): Promise<void>;
}

export function lockAddress(dataDir: string): string {
  const absolute = path.resolve(dataDir);
  const hash = createHash('sha256').update(absolute).digest('hex').slice(0, 24);
  if (process.platform === 'win32') return `\\\\?\\pipe\\smartdata-${hash}`;
  const inFolder = path.join(absolute, 'instance.sock');
  // a deep folder: a short relative path from the folder itself keeps the socket inside it
  return inFolder.length <= MAX_SOCKET_PATH ? inFolder : path.relative(process.cwd(), inFolder);
}

/** The pid of the process answering on the lock, or null when nobody answers (a stale file). */
function holder(address: string): Promise<{ pid: number | null } | null> {
  return new Promise((resolve) => {
    const socket = net.connect(address);
    let text = '';
    const done = (value: { pid: number | null } | null) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(5000, () => done({ pid: null })); // connected but silent: still held
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.on('end', () => {
      const pid = Number(/^(\d+)/.exec(text)?.[1]);
      done({ pid: Number.isSafeInteger(pid) ? pid : null });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // ECONNREFUSED: a socket file nobody listens on; ENOENT: no file at all
      done(error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? null : { pid: null });
    });
  });
}

function listen(server: net.Server, address: string): Promise<'listening' | 'in-use'> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') resolve('in-use');
      else reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve('listening');
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(address);
  });
}

/** Runs `work` while holding an exclusive guard file beside the socket. */
async function guarded<T>(address: string, dataDir: string, work: () => Promise<T>): Promise<T> {
  const guard = `${address}.takeover`;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(guard, 'wx');
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (await stat(guard).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > GUARD_STALE_MS) await rm(guard, { force: true });
      else if (attempt > 20) throw new DataDirInUse(dataDir, null);
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await work();
  } finally {
    await rm(guard, { force: true });
  }
}

/**
 * Takes the data folder's lock or throws DataDirInUse. Call it before opening anything in the
 * folder; keep the returned lock for the life of the process.
 */
export async function lockDataDir(dataDir: string): Promise<InstanceLock> {
  const address = lockAddress(dataDir);
  // whoever connects is told who holds the lock, so the refusal can name the process
  const server = net.createServer((socket) => socket.end(`${process.pid}\n`));
  server.unref();
  if ((await listen(server, address)) === 'in-use') {
    const current = await holder(address);
    if (current) throw new DataDirInUse(dataDir, current.pid);
    // left by a process that died without closing it (kill -9, power loss)
    await guarded(address, dataDir, async () => {
      const again = await holder(address);
      if (again) throw new DataDirInUse(dataDir, again.pid);
      await rm(address, { force: true });
      if ((await listen(server, address)) === 'in-use') {
        throw new DataDirInUse(dataDir, (await holder(address))?.pid ?? null);
      }
    });
  }
  return {
    address,
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
