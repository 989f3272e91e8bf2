import { type AlarmRuleSpec, DATA_PERMISSION } from '@platform/domain';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../../test/helper';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { addRule, type RuleInput } from './rules';
import { alarmRules, alarms } from './tables';

export const ABOVE_80: AlarmRuleSpec = {
  condition: 'above',
  levels: [
    { level: 1, threshold: 80 },
    { level: 2, threshold: 90 },
    { level: 3, threshold: 100 },
  ],
  durationS: 0,
  clear: { threshold: 75 },
};

/** Company's item (SAMPLE_FIELDS: f1 decimal, f2 integer, f3 text) with a rule on f1 above 80/90/100. */
export async function ruleFixture(
  t: TestApp,
  companyId: number,
  userId: number,
  opts: Partial<RuleInput> = {},
): Promise<{ itemId: number; nodeId: number; ruleId: number }> {
  const { itemId, nodeId } = await makeItem(t, companyId, { fields: SAMPLE_FIELDS });
  const ruleId = await addRule(
    t.db,
    { companyId, userId },
    {
      name: 'SECRET-RULE',
      enabled: true,
      itemId,
      fieldKey: 'f1',
      deviceId: null,
      ...ABOVE_80,
      recipients: { userIds: [userId], groupIds: [] },
      channels: ['app'],
      ...opts,
    },
  );
  t.app.alarms.rules.invalidate();
  return { itemId, nodeId, ruleId };
}

/** Writes f1 values through the ingest pipeline, one call each, a second apart. */
export async function submit(
  t: TestApp,
  companyId: number,
  itemId: number,
  values: number[],
  start = Date.now(),
) {
  for (const [i, v] of values.entries())
    await t.app.ingest.write({
      companyId,
      userId: null,
      source: 'http',
      records: [{ itemId, ts: new Date(start + i * 1000), values: { f1: v } }],
    });
}

export async function alarmsOf(t: TestApp, ruleId: number) {
  return t.db.select().from(alarms).where(eq(alarms.originId, ruleId)).orderBy(alarms.id);
}

export async function ruleRow(t: TestApp, ruleId: number) {
  const [row] = await t.db.select().from(alarmRules).where(eq(alarmRules.id, ruleId));
  return row;
}

export const READ = DATA_PERMISSION.read;
