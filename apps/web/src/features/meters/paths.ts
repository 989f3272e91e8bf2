/**
 * Addresses of the meter pages (the route table's smartdata.ts). A meter is addressed by its
 * cabin node id and name. A NEW meter is the config page with id 0 and name "-": the query
 * string says what to make, `?type=101|100` (standard by default) and `?dir=<directory node
 * id>` (the cabin directory it goes in; none for the top of the cabin).
 */
const seg = (value: string | number) => encodeURIComponent(String(value) || '-');

type MeterLike = { id: number; name: string; type?: number };

export const NEW_METER_ID = 0;

/** The data cabin, where meters live (the meter pages are top-level, without the app's menu). */
export const CABIN_PATH = '/smartdata/datacapsule';

export const meterPaths = {
  config: (m: MeterLike) => `/smartdata/electricMeterConfig/${seg(m.id)}/${seg(m.name)}`,
  create: (type: 101 | 100, dirId: number | null) =>
    `/smartdata/electricMeterConfig/${NEW_METER_ID}/-?type=${type}${dirId == null ? '' : `&dir=${dirId}`}`,
  view: (m: MeterLike) =>
    `/${m.type === 100 ? 'virtualElectricMeter' : 'standardElectricMeter'}/${seg(m.id)}/${seg(m.name)}`,
  report: (m: MeterLike, year: number, month: number) =>
    `/${m.type === 100 ? 'virtualReport' : 'standardReport'}/${year}/${month}/${seg(m.id)}/${seg(m.name)}`,
};

/** The page of a meter known only by its cabin node (its kind is the meter's, asked once). */
export async function meterPageOf(node: { id: number; name: string }): Promise<string> {
  const { get } = await import('../../app/http/client');
  const meter = await get<{ id: number; name: string; type: number }>('/meter/get', { id: node.id });
  return meterPaths.view(meter);
}
