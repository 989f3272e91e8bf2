/** Paths of the report pages (route table: packages/domain/src/routes/smartdata.ts); entityId is the report's cabin node id. */
const enc = encodeURIComponent;

export const reportPaths = {
  view: (node: { id: number; name: string }) => `/smartdata/reportTemplate/${node.id}/${enc(node.name)}`,
  edit: (node: { id: number; name: string }) => `/smartdata/editTemplate/${node.id}/${enc(node.name)}`,
  preview: (id: number) => `/previewReport/${id}`,
};
