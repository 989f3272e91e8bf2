// The login page's JavaScript budget: what a browser downloads before the login page is usable,
// in gzip (1 kB = 1000 bytes, as Vite reports sizes): at most 245 kB, below the 250 kB
// (the page was 396 kB, then 279 kB, then 250 kB while every page's lazy import sat in its
// chunk map; it is 240.5 kB now that the pages register after login). Lower it as the page gets
// lighter, never raise it: a page after login that pushes the login page over it has made the
// login page import something it does not need (see the README's tests section).
//
// Reads the web build's Vite manifest (apps/web/dist/.vite/manifest.json, `build.manifest`),
// walks the static imports from the entry (index.html) plus the login page's own chunk when it
// has one (the 'login' chunk group of apps/web/vite.config.ts puts it in the entry's static
// graph), sums the chunks' gzip sizes and names the biggest. Dynamic imports are left out: they
// load after the page is usable (the pages after login, the registration view, the scan tab),
// or replace words it has: the English words (a person who chose English loads them before the
// first render, ~3 kB gzip, beside the default language's that the figure counts).
//
//   node scripts/bundle-budget.mjs [dist directory]   → exit 1 when over budget
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const BUDGET_BYTES = 245_000;
/** the login page's module, as the manifest keys a chunk of its own */
export const LOGIN_PAGE_SRC = 'src/features/auth/pages/LoginPage.tsx';
/** the chunk group of apps/web/vite.config.ts that holds the entry and the login page */
export const LOGIN_GROUP = 'login';

/**
 * Manifest keys the login page starts from: the entry chunks, plus the login page's chunk when
 * it is a chunk of its own. Throws when neither that chunk nor the login group can be found,
 * so a renamed page or group cannot make the check measure less than the page loads.
 */
export function loginRoots(manifest, { loginSrc = LOGIN_PAGE_SRC, group = LOGIN_GROUP } = {}) {
  const roots = Object.keys(manifest).filter((key) => manifest[key].isEntry);
  if (roots.length === 0) throw new Error('the manifest has no entry chunk (index.html)');
  if (manifest[loginSrc]) return [...roots, loginSrc];
  const grouped = staticChunks(manifest, roots).some((key) => manifest[key].name === group);
  if (!grouped) {
    throw new Error(
      `the manifest has neither a chunk for ${loginSrc} nor a '${group}' chunk in the entry's static imports`,
    );
  }
  return roots;
}

/**
 * Manifest keys of every chunk loaded with `roots` before any dynamic import: the roots and,
 * transitively, their static `imports`, each once, in visiting order.
 */
export function staticChunks(manifest, roots) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest has no chunk ${key}`);
    seen.add(key);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const root of roots) visit(root);
  return [...seen];
}

/**
 * The budget figure: the JavaScript files (.js) of the chunks loaded before the login page is
 * usable, each once, with `sizeOf(file)` bytes each, biggest first.
 */
export function loginBudget(manifest, sizeOf, { limit = BUDGET_BYTES, ...options } = {}) {
  const keys = staticChunks(manifest, loginRoots(manifest, options));
  const files = [...new Set(keys.map((key) => manifest[key].file))].filter((file) => file.endsWith('.js'));
  const chunks = files.map((file) => ({ file, bytes: sizeOf(file) })).sort((a, b) => b.bytes - a.bytes);
  const total = chunks.reduce((sum, chunk) => sum + chunk.bytes, 0);
  return { total, limit, ok: total <= limit, chunks };
}

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

export function formatBudget(report, top = 8) {
  const lines = [
    `Login page JavaScript before it is usable: ${kB(report.total)} gzip in ${report.chunks.length} files ` +
      `(budget ${kB(report.limit)}): ${report.ok ? 'within' : 'OVER'} budget`,
    'Biggest:',
    ...report.chunks.slice(0, top).map((chunk) => `  ${kB(chunk.bytes).padStart(9)}  ${chunk.file}`),
  ];
  return lines.join('\n');
}

/** gzip size of a built file at level 9, as the build's precompressed .gz files are made. */
export function gzipSizer(dist) {
  return (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const dist = path.resolve(process.argv[2] ?? path.join(root, 'apps/web/dist'));
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const report = loginBudget(manifest, gzipSizer(dist));
  console.log(formatBudget(report));
  process.exit(report.ok ? 0 : 1);
}
