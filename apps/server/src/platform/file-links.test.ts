import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILE_LINK_WINDOW_SECONDS, FileLinks, loadFileLinkSecret } from './file-links';

const KEY = 'records/1/2/0123456789abcdef0123456789abcdef.png';
const NOW = Date.UTC(2026, 0, 1, 10, 3, 20);

function parts(link: string) {
  const url = new URL(link, 'http://x');
  return { path: url.pathname, exp: url.searchParams.get('exp')!, sig: url.searchParams.get('sig')! };
}

describe('FileLinks', () => {
  const links = new FileLinks(randomBytes(32));

  it('signs a key until the end of the next 10-minute window, the same link within a window', () => {
    const { path: p, exp, sig } = parts(links.link(KEY, NOW));
    expect(p).toBe(`/general/files/${KEY}`);
    expect(Number(exp) * 1000 - NOW).toBeGreaterThan(FILE_LINK_WINDOW_SECONDS * 1000);
    expect(Number(exp) * 1000 - NOW).toBeLessThanOrEqual(2 * FILE_LINK_WINDOW_SECONDS * 1000);
    expect(links.link(KEY, NOW + 60_000)).toBe(links.link(KEY, NOW));
    expect(links.check(KEY, exp, sig, NOW)).toBe('ok');
  });

  it('refuses another key, another expiry, a changed signature, another secret; says when it expired', () => {
    const { exp, sig } = parts(links.link(KEY, NOW));
    expect(links.check(KEY.replace('1/2', '1/3'), exp, sig, NOW)).toBe('invalid');
    expect(links.check(KEY, String(Number(exp) + FILE_LINK_WINDOW_SECONDS), sig, NOW)).toBe('invalid');
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    expect(links.check(KEY, exp, flipped, NOW)).toBe('invalid');
    expect(links.check(KEY, exp, undefined, NOW)).toBe('invalid');
    expect(links.check(KEY, undefined, sig, NOW)).toBe('invalid');
    expect(links.check(KEY, `${exp}.0`, sig, NOW)).toBe('invalid');
    expect(new FileLinks(randomBytes(32)).check(KEY, exp, sig, NOW)).toBe('invalid');
    expect(links.check(KEY, exp, sig, Number(exp) * 1000 + 1)).toBe('expired');
  });
});

describe('loadFileLinkSecret', () => {
  it('makes a secret on first start, readable by its owner only, and keeps it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'file-links-'));
    const [first, second] = await Promise.all([loadFileLinkSecret(dir), loadFileLinkSecret(dir)]);
    expect(first.equals(second)).toBe(true);
    const file = path.join(dir, 'secrets', 'file-links.key');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).length).toBeGreaterThanOrEqual(32);
    expect((await loadFileLinkSecret(dir)).equals(first)).toBe(true);
  });

  it('takes the environment secret when set, and refuses a short one', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'file-links-'));
    const secret = 'x'.repeat(40);
    expect((await loadFileLinkSecret(dir, secret)).toString()).toBe(secret);
    await expect(loadFileLinkSecret(dir, 'short')).rejects.toThrow('FILE_LINK_SECRET');
  });
});
