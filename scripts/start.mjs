// `npm start`: install if needed, build the web app if needed, compile the server if needed, start it on
// the embedded default (PGlite in ./data, demo company seeded on first start).
import { spawn } from 'node:child_process';
import { ensureDependencies, ensureServerBuild, ensureWebBuild, ROOT } from './lib.mjs';

ensureDependencies();
if (ensureWebBuild() !== 0) process.exit(1);
const main = await ensureServerBuild();

// stack traces in the log point at the TypeScript sources
const child = spawn(process.execPath, ['--enable-source-maps', main], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { LOG_LEVEL: 'warn', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
