/** Where the flow chart pages are (routes/smartdata.ts). */
const seg = (s: string) => encodeURIComponent(s || '-');

export const flowChartPaths = {
  chart: (d: { id: number; name: string }) => `/flowChart/${d.id}/${seg(d.name)}`,
  inverter: (d: { id: number; name: string }) => `/inverterDashboard/${d.id}/${seg(d.name)}`,
};
