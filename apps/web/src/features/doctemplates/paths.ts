/** Paths of the template pages (route table: packages/domain/src/routes/smartdata.ts). */

const enc = encodeURIComponent;

export const DOC_TEMPLATE_PATH = '/smartdata/Doctemplate';

/** The editor of one template: the Doctemplate page with `?edit=<node id>`. */
export function docTemplateEditPath(nodeId: number): string {
  return `${DOC_TEMPLATE_PATH}?edit=${nodeId}`;
}

/** richEditorTemplate/:itemId/:valueId/:itemName/:objId: the template objId filled with record valueId */
export function renderedDocPath(p: {
  itemId: number;
  recordId: number;
  itemName: string;
  templateId: number;
}) {
  return `/smartdata/richEditorTemplate/${p.itemId}/${p.recordId}/${enc(p.itemName || '-')}/${p.templateId}`;
}
