// `npm start`: install if needed, build the web app if needed, start the server on the
// embedded default (PGlite in ./data, demo company seeded on first start).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureDependencies, ensureWebBuild, ROOT } from './lib.mjs';

ensureDependencies();
if (ensureWebBuild() !== 0) process.exit(1);

const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['apps/server/src/main.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { LOG_LEVEL: 'warn', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
