/**
 * An unknown phone must cost the same time as a wrong password, or the time tells which phones
 * have accounts. Timing itself is not asserted (a shared machine is too noisy): the test proves
 * that the same work, one scrypt verification with the parameters of real hashes, is done in
 * every case. bench/login-timing.ts measures the durations.
 */
import { ERROR_CODES } from '@platform/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as password from '../../platform/password';
import { buildTestApp, nextPhone, TEST_PASSWORD, type TestApp } from '../../test/helper';
import { createUser } from '../users/service';
import { getToken } from './test-support';

vi.mock('../../platform/password', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../platform/password')>();
  return { ...original, verifyPassword: vi.fn(original.verifyPassword) };
});

const verify = vi.mocked(password.verifyPassword);
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());
beforeEach(() => verify.mockClear());

/** scrypt$N$r$p of a hash: the parameters that decide how long a verification takes. */
function costOf(hash: string | null | undefined): string {
  return (hash ?? '').split('$').slice(0, 4).join('$');
}

describe('password login does the same work whoever the phone belongs to', () => {
  it('verifies one scrypt hash with the parameters of real ones for an unknown phone, a passwordless account and a wrong password', async () => {
    const known = nextPhone();
    const real = await createUser(t.db, { phone: known, password: TEST_PASSWORD });
    const passwordless = nextPhone();
    await createUser(t.db, { phone: passwordless });

    const cases = { unknown: nextPhone(), passwordless, wrong: known };
    const work: Record<string, string[]> = {};
    for (const [name, phone] of Object.entries(cases)) {
      verify.mockClear();
      const res = await getToken(t, { phone, password: 'wrong999' });
      expect(res.json().code, name).toBe(ERROR_CODES.LOGIN_FAILED);
      // every call ran to its end (a verification that returned early would not be the same work)
      const settled = await Promise.all(verify.mock.results.map((r) => r.value));
      expect(settled, name).toEqual([false]);
      work[name] = verify.mock.calls.map(([, hash]) => costOf(hash));
    }
    expect(work.unknown).toEqual([costOf(real.passwordHash)]);
    expect(work.passwordless).toEqual(work.unknown);
    expect(work.wrong).toEqual(work.unknown);
    expect(costOf(real.passwordHash)).toMatch(/^scrypt\$\d+\$\d+\$\d+$/);
  });
});
