/**
 * Short-lived signed links to private files. A browser's <img> and <a download> cannot send
 * the bearer token, so the server, when it hands record values to a caller who may read them,
 * turns each file reference into a link that carries its own proof:
 *
 *   /general/files/<key>?exp=<unix seconds>&sig=<base64url HMAC-SHA256(secret, key + "\n" + exp)>
 *
 * The link opens the file until `exp` and nothing else: another key, another expiry or a
 * changed byte fails the signature. Links of one 10-minute window share their expiry (the end
 * of the next window, so 10 to 20 minutes away), which keeps them the same across page
 * refreshes and lets the browser cache the pictures.
 *
 * The secret: FILE_LINK_SECRET (at least 32 characters; the same on every node of a
 * multi-node deployment), else a random one generated on first start and kept in
 * <data dir>/secrets/file-links.key (mode 0600). Changing it ends every link issued so far.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FILE_LINK_WINDOW_SECONDS } from '@platform/domain';

export { FILE_LINK_WINDOW_SECONDS };
export const FILE_LINK_SECRET_MIN_LENGTH = 32;
const FILES_PATH = '/general/files/';

export type LinkCheck = 'ok' | 'expired' | 'invalid';

export class FileLinks {
  readonly #secret: Buffer;

  constructor(secret: Buffer) {
    if (secret.length < FILE_LINK_SECRET_MIN_LENGTH) throw new Error('file link secret too short');
    this.#secret = secret;
  }

  #signature(key: string, exp: number): Buffer {
    return createHmac('sha256', this.#secret).update(`${key}\n${exp}`).digest();
  }

  /**
   * An HMAC-SHA256 of `text` for another kind of link (`purpose` keeps the kinds apart, and a
   * file link's text never holds a second line break): firmware download links use it.
   */
  signFor(purpose: string, text: string): Buffer {
    return createHmac('sha256', this.#secret).update(`${purpose}\n\n${text}`).digest();
  }

  /** the expiry of links issued at `nowMs` */
  static expiryAt(nowMs: number): number {
    const window = Math.floor(nowMs / 1000 / FILE_LINK_WINDOW_SECONDS);
    return (window + 2) * FILE_LINK_WINDOW_SECONDS;
  }

  /** The signed link of a private key, valid until the end of the next window. */
  link(key: string, nowMs = Date.now()): string {
    const exp = FileLinks.expiryAt(nowMs);
    const sig = this.#signature(key, exp).toString('base64url');
    return `${FILES_PATH}${key}?exp=${exp}&sig=${sig}`;
  }

  /** Whether `exp` and `sig` of a request are a link this server issued for `key`, still valid. */
  check(key: string, exp: string | undefined, sig: string | undefined, nowMs = Date.now()): LinkCheck {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return 'invalid';
    const expected = this.#signature(key, Number(exp));
    const given = Buffer.from(sig, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return Number(exp) * 1000 < nowMs ? 'expired' : 'ok';
  }
}

/**
 * The secret of file links: from the environment when set, else the data folder's own, made
 * on first start. Two nodes starting at once on one folder agree: the file is put in place only
 * if absent, and whoever loses the race reads the winner's.
 */
export async function loadFileLinkSecret(dataDir: string, fromEnv?: string): Promise<Buffer> {
  if (fromEnv !== undefined && fromEnv !== '') {
    if (fromEnv.length < FILE_LINK_SECRET_MIN_LENGTH) {
      throw new Error(`FILE_LINK_SECRET must be at least ${FILE_LINK_SECRET_MIN_LENGTH} characters`);
    }
    return Buffer.from(fromEnv, 'utf8');
  }
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, 'file-links.key');
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // written aside, then linked into place: a reader never sees a half-written file
    const draft = `${file}.${randomBytes(6).toString('hex')}`;
    await writeFile(draft, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    try {
      await link(draft, file);
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    } finally {
      await rm(draft, { force: true });
    }
  }
  const text = (await readFile(file, 'utf8')).trim();
  if (text.length < FILE_LINK_SECRET_MIN_LENGTH) throw new Error(`${file} holds no usable secret`);
  return Buffer.from(text, 'utf8');
}
