// `npm start`: install if needed, build the web app if needed, compile the server if needed, start it on
// the embedded default (PGlite in ./data, demo company seeded on first start).
import { spawn } from 'node:child_process';
import { ensureDependencies, ensureServerBuild, ensureWebBuild, ROOT } from './lib.mjs';

ensureDependencies();
if (ensureWebBuild() !== 0) process.exit(1);
const main = await ensureServerBuild();

// SOURCE_MAPS=on: stack traces in the log point at the TypeScript sources. Off by default: the
// parsed source map of the bundle stays in the server's heap (~14 MB of an idle platform's
// ~340 MB, bench/RESULTS.md "Footprint")
const nodeFlags = process.env.SOURCE_MAPS === 'on' ? ['--enable-source-maps'] : [];
const child = spawn(process.execPath, [...nodeFlags, main], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { LOG_LEVEL: 'warn', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
