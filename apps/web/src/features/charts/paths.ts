/** Paths of the chart pages (route table: packages/domain/src/routes/smartdata.ts). */
const enc = encodeURIComponent;

export interface ChartRef {
  itemId: number;
  itemName: string;
  chartId: number;
  chartName: string;
  type: string;
}

/** chart/chartConfig/:itemId/:chartId/:itemName/:id (chartId 0: a new chart; id: the item's cabin node) */
export function chartConfigPath(p: {
  itemId: number;
  chartId: number;
  itemName: string;
  nodeId: number;
}): string {
  return `/smartdata/chart/chartConfig/${p.itemId}/${p.chartId}/${enc(p.itemName)}/${p.nodeId}`;
}

/** chartpages/:itemId/:chartName/:typeCode/:chartId/:itemName */
export function chartPagePath(c: ChartRef): string {
  return `/smartdata/chartpages/${c.itemId}/${enc(c.chartName)}/${enc(c.type)}/${c.chartId}/${enc(c.itemName)}`;
}

/** ChartDialogs/… with the same parameters */
export function chartDialogPath(c: ChartRef): string {
  return `/smartdata/ChartDialogs/${c.itemId}/${enc(c.chartName)}/${enc(c.type)}/${c.chartId}/${enc(c.itemName)}`;
}
