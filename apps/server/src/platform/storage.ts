/**
 * Object storage with a public and a private bucket (spec point 7). The embedded default
 * keeps files under ./data/files/{public,private}; public files are served at
 * /general/files/public/<key>. An S3-compatible adapter implements the same interface.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type Bucket = 'public' | 'private';

export interface Storage {
  put(bucket: Bucket, key: string, bytes: Uint8Array, contentType: string): Promise<string>;
  get(bucket: Bucket, key: string): Promise<Buffer | null>;
  remove(bucket: Bucket, key: string): Promise<void>;
  /** the URL a browser uses for a public object */
  publicUrl(key: string): string;
  /** the key of a public URL made by publicUrl, or null for a URL that is not ours */
  keyOfPublicUrl(url: string): string | null;
}

const SAFE_KEY = /^[A-Za-z0-9/_.-]+$/;
export const PUBLIC_FILES_PREFIX = '/general/files/public/';

export class LocalStorage implements Storage {
  constructor(private readonly root: string) {}

  private pathOf(bucket: Bucket, key: string): string {
    if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe storage key: ${key}`);
    return path.join(this.root, bucket, key);
  }

  async put(bucket: Bucket, key: string, bytes: Uint8Array): Promise<string> {
    const file = this.pathOf(bucket, key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, bytes);
    return bucket === 'public' ? this.publicUrl(key) : key;
  }

  async get(bucket: Bucket, key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(bucket, key));
    } catch {
      return null;
    }
  }

  async remove(bucket: Bucket, key: string): Promise<void> {
    await rm(this.pathOf(bucket, key), { force: true });
  }

  publicUrl(key: string): string {
    return `${PUBLIC_FILES_PREFIX}${key}`;
  }

  keyOfPublicUrl(url: string): string | null {
    return url.startsWith(PUBLIC_FILES_PREFIX) ? url.slice(PUBLIC_FILES_PREFIX.length) : null;
  }

  get rootDir(): string {
    return this.root;
  }
}
