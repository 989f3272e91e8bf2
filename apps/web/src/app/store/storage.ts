/**
 * localStorage with an optional expiry per value (spec point 9: "Stored local values may
 * carry an expiry"). A value is kept as `{"v": value, "e": epochMs}`; an expired value reads
 * as null and is removed on read. Values written by other code (plain strings) still read.
 */
interface Stored<T> {
  v: T;
  e?: number;
}

function isStored(value: unknown): value is Stored<unknown> {
  return typeof value === 'object' && value !== null && 'v' in value;
}

export const storage = {
  set<T>(key: string, value: T, ttlMs?: number): void {
    const entry: Stored<T> = ttlMs && ttlMs > 0 ? { v: value, e: Date.now() + ttlMs } : { v: value };
    try {
      window.localStorage.setItem(key, JSON.stringify(entry));
    } catch {
      // storage full or disabled: the session then lives only in memory
    }
  },

  get<T>(key: string): T | null {
    let raw: string | null;
    try {
      raw = window.localStorage.getItem(key);
    } catch {
      return null;
    }
    if (raw == null) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return raw as unknown as T;
    }
    if (!isStored(parsed)) return parsed as T;
    if (parsed.e != null && parsed.e <= Date.now()) {
      window.localStorage.removeItem(key);
      return null;
    }
    return parsed.v as T;
  },

  remove(key: string): void {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // nothing stored
    }
  },
};
