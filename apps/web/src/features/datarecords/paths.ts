/** Paths of the records pages (route table: packages/domain/src/routes/smartdata.ts). */
import type { DataItem, DataRecord } from './api';

const enc = encodeURIComponent;

export function dataValuePath(p: {
  itemId: number;
  itemName: string;
  kind: number;
  objId: number;
  pid?: number | string | null;
  parentDirectory?: string | null;
}): string {
  return `/smartdata/datavalue/${p.itemId}/${enc(p.itemName)}/${p.kind}/${p.objId}/${enc(String(p.pid ?? 0))}/${enc(p.parentDirectory || '-')}`;
}

export function formPagePath(item: Pick<DataItem, 'id' | 'name' | 'nodeId'>): string {
  return `/smartdata/formpage/${item.id}/${enc(item.name)}/${item.nodeId}`;
}

/**
 * ChildValue/:objId/:itemId/:itemName/:parentItemId/:parentObjId/:recordId/:parentName/:filterList/:parentTitleColumn
 * The child item defaults to the parent item itself; the child page lets the user choose another.
 */
export function childValuePath(
  parent: Pick<DataItem, 'id' | 'name' | 'nodeId' | 'titleField'>,
  record: Pick<DataRecord, 'id'>,
  child: { itemId: number; itemName: string; objId: number } = {
    itemId: parent.id,
    itemName: parent.name,
    objId: parent.nodeId,
  },
): string {
  return [
    '/smartdata/ChildValue',
    child.objId,
    child.itemId,
    enc(child.itemName),
    parent.id,
    parent.nodeId,
    record.id,
    enc(parent.name),
    enc('[]'),
    enc(parent.titleField || '-'),
  ].join('/');
}
