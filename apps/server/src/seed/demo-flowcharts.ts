/**
 * The demo gateways' flow charts (docs/configuration-screens.md, issue 13 point 7): each bound
 * gateway gets the device family it is, its roles matched by name onto the items it feeds, as a
 * person would with one click on its flow chart page: the boiler room gateway a boiler feedwater
 * line, the compressor room gateway a meter cabinet, the switch room gateway (with the rooftop
 * inverter) a PV inverter, whose dashboard then reads the inverter. The boiler's switch starts and
 * stops the feed pump through the commands its gateway's configuration has (pumpStart, pumpStop).
 */
import { autoMapCommands, autoMapRoles, templateCommands } from '@platform/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { DemoLang } from '../config';
import { dataItems } from '../modules/dataitems/tables';
import { ensureBuiltinTemplates } from '../modules/flowcharts/service';
import { deviceFlowcharts, familyTemplates } from '../modules/flowcharts/tables';
import { gateways } from '../modules/gateways/tables';
import { deviceCommands } from '../modules/screens/service';
import type { Db } from '../platform/db';
import { DEMO_FLEET } from './demo-gateways';

/** serial number → family template code */
export const DEMO_FLOWCHARTS: Record<string, string> = {
  SDG2024000101: 'boiler-feedwater',
  SDG2024000102: 'meter-cabinet',
  SDG4024000103: 'pv-inverter',
};

export async function seedDemoFlowcharts(
  db: Db,
  opts: { companyId: number; adminId: number; lang: DemoLang },
): Promise<void> {
  // the seed may run before the server has started (tests, a first start)
  await ensureBuiltinTemplates(db);
  for (const [sn, code] of Object.entries(DEMO_FLOWCHARTS)) {
    const entry = DEMO_FLEET.find((g) => g.sn === sn);
    const [gateway] = await db
      .select({ id: gateways.id })
      .from(gateways)
      .where(eq(gateways.serialNumber, sn));
    const [template] = await db.select().from(familyTemplates).where(eq(familyTemplates.code, code));
    if (!entry || !gateway || !template) continue;
    const names = (entry.feeds ?? []).map((f) => f.item[opts.lang]);
    if (names.length === 0) continue;
    const items = await db
      .select({ id: dataItems.id, fields: dataItems.fields })
      .from(dataItems)
      .where(and(eq(dataItems.companyId, opts.companyId), inArray(dataItems.name, names)));
    const points = items.flatMap((i) =>
      i.fields.map((f) => ({ itemId: i.id, field: f.key, fieldName: f.name })),
    );
    await db.insert(deviceFlowcharts).values({
      companyId: opts.companyId,
      gatewayId: gateway.id,
      templateId: template.id,
      map: autoMapRoles(template.roles, points),
      // the boiler's feed-pump switch: its gateway's configuration has pumpStart and pumpStop
      commands: autoMapCommands(
        templateCommands(template.body),
        await deviceCommands(db, opts.companyId, gateway.id),
      ),
      updatedBy: opts.adminId,
    });
  }
}
