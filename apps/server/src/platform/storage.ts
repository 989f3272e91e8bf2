/**
 * Object storage with a public and a private bucket (spec point 7). The embedded default
 * keeps files under ./data/files/{public,private}; public files (logos, avatars, template
 * images) are served to anyone at /general/files/public/<key>. Private files (record pictures
 * and files under records/) are served only through short-lived signed links
 * (platform/file-links.ts). An S3-compatible adapter implements the same interface.
 */
import type { Dirent } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type Bucket = 'public' | 'private';

export interface Storage {
  put(bucket: Bucket, key: string, bytes: Uint8Array, contentType: string): Promise<string>;
  get(bucket: Bucket, key: string): Promise<Buffer | null>;
  remove(bucket: Bucket, key: string): Promise<void>;
  /** the keys of a bucket that start with `prefix` (a folder such as 'records/') */
  list(bucket: Bucket, prefix: string): AsyncIterable<string>;
  /** the URL a browser uses for a public object */
  publicUrl(key: string): string;
  /** the key of a public URL made by publicUrl, or null for a URL that is not ours */
  keyOfPublicUrl(url: string): string | null;
}

const SAFE_KEY = /^[A-Za-z0-9/_.-]+$/;
export const PUBLIC_FILES_PREFIX = '/general/files/public/';
/** keys of record pictures and files: private, served only through signed links */
export const RECORD_FILES_AREA = 'records/';
/** keys of device pictures: private, served only through signed links */
export const DEVICE_FILES_AREA = 'devices/';

const KEY_MAX_LENGTH = 300;
/** A path segment that is not '.', '..' or hidden: it may not start with a dot. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** The key as given, or null when it could name anything outside its bucket. */
export function safeStorageKey(key: string | undefined): string | null {
  if (!key || key.length > KEY_MAX_LENGTH) return null;
  return key.split('/').every((segment) => SEGMENT.test(segment)) ? key : null;
}

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

  async *list(bucket: Bucket, prefix: string): AsyncIterable<string> {
    const base = path.join(this.root, bucket);
    let entries: Dirent[];
    try {
      entries = await readdir(this.pathOf(bucket, prefix.replace(/\/+$/, '')), {
        recursive: true,
        withFileTypes: true,
      });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      yield path.relative(base, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    }
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
