/** Compiles the server once before the browser tests: harness.ts runs what `npm start` runs. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export default function setup(): void {
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs')], {
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('could not compile the server (npm run build:server)');
}
