import { describe, expect, test } from 'vitest';
import { BUDGET_BYTES, formatBudget, loginBudget, loginRoots, staticChunks } from './bundle-budget.mjs';

// A Vite manifest in miniature: the entry and the login page share a chunk; the entry loads a
// page after login, the login page its registration view, both dynamically.
const manifest = {
  'index.html': {
    file: 'assets/index-1.js',
    src: 'index.html',
    isEntry: true,
    imports: ['_react-1.js', '_shared-1.js'],
    dynamicImports: ['src/features/auth/pages/LoginPage.tsx', 'src/features/home/pages/HomePage.tsx'],
    css: ['assets/index-1.css'],
  },
  '_react-1.js': { file: 'assets/react-1.js', name: 'react' },
  '_shared-1.js': { file: 'assets/shared-1.js', name: 'shared', imports: ['_react-1.js'] },
  'src/features/auth/pages/LoginPage.tsx': {
    file: 'assets/LoginPage-1.js',
    src: 'src/features/auth/pages/LoginPage.tsx',
    isDynamicEntry: true,
    imports: ['_shared-1.js', '_form-1.js', 'index.html'],
    dynamicImports: ['src/features/auth/components/RegisterForm.tsx'],
  },
  '_form-1.js': { file: 'assets/form-1.js', name: 'form', imports: ['_react-1.js'] },
  'src/features/auth/components/RegisterForm.tsx': {
    file: 'assets/RegisterForm-1.js',
    isDynamicEntry: true,
    imports: ['_form-1.js'],
  },
  'src/features/home/pages/HomePage.tsx': {
    file: 'assets/HomePage-1.js',
    isDynamicEntry: true,
    imports: ['_table-1.js', '_shared-1.js'],
  },
  '_table-1.js': { file: 'assets/table-1.js', name: 'table' },
};

const SIZES = {
  'assets/index-1.js': 1_000,
  'assets/react-1.js': 60_000,
  'assets/shared-1.js': 20_000,
  'assets/LoginPage-1.js': 7_000,
  'assets/form-1.js': 12_000,
  'assets/RegisterForm-1.js': 3_000,
  'assets/HomePage-1.js': 4_000,
  'assets/table-1.js': 32_000,
};
const sizeOf = (file) => {
  if (!(file in SIZES)) throw new Error(`no size for ${file}`);
  return SIZES[file];
};

describe('static chunks', () => {
  test('follow static imports transitively, each chunk once, never dynamic imports', () => {
    expect(staticChunks(manifest, ['index.html'])).toEqual(['index.html', '_react-1.js', '_shared-1.js']);
    expect(staticChunks(manifest, loginRoots(manifest))).toEqual([
      'index.html',
      '_react-1.js',
      '_shared-1.js',
      'src/features/auth/pages/LoginPage.tsx',
      '_form-1.js',
    ]);
  });

  test('a chunk the manifest does not have is an error', () => {
    expect(() => staticChunks({ a: { file: 'a.js', imports: ['b'] } }, ['a'])).toThrow(/no chunk b/);
  });
});

describe('login roots', () => {
  test('the entry plus the login page when it is a chunk of its own', () => {
    expect(loginRoots(manifest)).toEqual(['index.html', 'src/features/auth/pages/LoginPage.tsx']);
  });

  test("the entry alone when the login page sits in the 'login' group of its static graph", () => {
    const grouped = {
      'index.html': { file: 'assets/index-2.js', isEntry: true, imports: ['_login-2.js'] },
      '_login-2.js': { file: 'assets/login-2.js', name: 'login' },
    };
    expect(loginRoots(grouped)).toEqual(['index.html']);
  });

  test('neither the login chunk nor the group: an error, not a smaller figure', () => {
    const lost = { 'index.html': { file: 'assets/index-3.js', isEntry: true, imports: [] } };
    expect(() => loginRoots(lost)).toThrow(/neither a chunk for src\/features\/auth\/pages\/LoginPage.tsx/);
    expect(() => loginRoots({})).toThrow(/no entry chunk/);
  });
});

describe('login budget', () => {
  test('sums the gzip sizes of the shared and the login chunks, biggest first', () => {
    const report = loginBudget(manifest, sizeOf);
    // index 1000 + react 60000 + shared 20000 + LoginPage 7000 + form 12000; not HomePage,
    // table or RegisterForm (dynamic), shared and react counted once, no CSS
    expect(report.total).toBe(100_000);
    expect(report.chunks.map((chunk) => chunk.file)).toEqual([
      'assets/react-1.js',
      'assets/shared-1.js',
      'assets/form-1.js',
      'assets/LoginPage-1.js',
      'assets/index-1.js',
    ]);
    expect(report.ok).toBe(true);
  });

  test('over the limit: not ok, and the report says so with the figure and the biggest chunks', () => {
    const report = loginBudget(manifest, sizeOf, { limit: 99_999 });
    expect(report.ok).toBe(false);
    const text = formatBudget(report, 2);
    expect(text).toContain('100.0 kB gzip in 5 files (budget 100.0 kB): OVER budget');
    expect(text.split('\n').slice(2)).toEqual([
      '    60.0 kB  assets/react-1.js',
      '    20.0 kB  assets/shared-1.js',
    ]);
  });

  test("without a limit given, the line is the budget: the issue's 250 kB or lower, never raised", () => {
    expect(BUDGET_BYTES).toBeLessThanOrEqual(250_000);
    // the fake React chunk sized so that the page weighs `total` (the other chunks weigh 40 kB)
    const weighing = (total) => (file) => (file === 'assets/react-1.js' ? total - 40_000 : sizeOf(file));
    const over = loginBudget(manifest, weighing(BUDGET_BYTES + 1));
    expect(over.limit).toBe(BUDGET_BYTES);
    expect(over.total).toBe(BUDGET_BYTES + 1);
    expect(over.ok).toBe(false);
    expect(loginBudget(manifest, weighing(BUDGET_BYTES)).ok).toBe(true);
  });

  test('exactly at the limit is within budget', () => {
    expect(loginBudget(manifest, sizeOf, { limit: 100_000 }).ok).toBe(true);
  });
});
