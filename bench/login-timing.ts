/**
 * `npx tsx bench/login-timing.ts [--rounds N]`: how long a password login takes to fail for a
 * registered phone with a wrong password, for an account without a password and for a phone
 * with no account. The three must be indistinguishable, or the time tells an attacker which
 * phones have accounts. Runs the real app on a fresh in-memory PGlite, rounds interleaved so
 * that machine noise falls on all three alike; prints the median and the quartiles of each.
 * (The tests prove the same work is done; this shows the time.)
 */
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { loginThrottle } from '../apps/server/src/modules/auth/tables';
import { createUser } from '../apps/server/src/modules/users/service';
import { openDatabase } from '../apps/server/src/platform/db';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '40' } } });
const rounds = Number(values.rounds);

const database = await openDatabase({ pglite: new PGlite() });
const config = { ...loadConfig({ LOGIN_RATE_LIMIT: '1000000', MQTT_PORT: 'off' }), seedDemo: false };
const app = await buildApp({ config, db: database.db, logger: false });
await app.ready();

await createUser(database.db, { phone: '13700000001', password: 'right-password1' });
await createUser(database.db, { phone: '13700000002' });
const cases = {
  'wrong password': '13700000001',
  'no password set': '13700000002',
  'unknown phone': '13700000003',
};

async function attempt(phone: string): Promise<number> {
  const started = process.hrtime.bigint();
  const res = await app.inject({
    method: 'POST',
    url: '/general/user/access/getToken',
    payload: `phone=${phone}&password=wrong-password9`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.json().code !== 40101) throw new Error(`unexpected answer for ${phone}: ${res.body}`);
  // keep the phones below their backoff: this measures the answer, not the lock
  await database.db.delete(loginThrottle);
  return ms;
}

const times: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
// warm-up: the first scrypt and the first queries pay for loading
for (const phone of Object.values(cases)) await attempt(phone);
for (let round = 0; round < rounds; round += 1) {
  for (const [name, phone] of Object.entries(cases)) times[name]!.push(await attempt(phone));
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
console.log(`password login failures, ${rounds} rounds each (ms):`);
for (const [name, list] of Object.entries(times)) {
  const sorted = [...list].sort((a, b) => a - b);
  console.log(
    `  ${name.padEnd(16)} median ${quantile(sorted, 0.5).toFixed(1).padStart(6)}   p25 ${quantile(sorted, 0.25).toFixed(1).padStart(6)}   p75 ${quantile(sorted, 0.75).toFixed(1).padStart(6)}`,
  );
}
await app.close();
await database.close();
