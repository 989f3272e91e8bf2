/**
 * Pure helpers of the cabin pages: the flat node list as a tree, what a level allows, the
 * validation messages of the one catalogue (so the form says exactly what the server says),
 * and the paths the cabin opens.
 */
import {
  type CabinNodeType,
  checkCabinName,
  checkDataItemName,
  checkIp,
  DATA_PERMISSION,
  type ErrorKey,
  IMPORT_ONLY_NODE_TYPES,
  type ItemKind,
  messageFor,
} from '@platform/domain';
import type { FormRule } from 'antd';
import { currentLang } from '../../app/i18n';
import type { CabinNode } from './api';

/** A catalogue message in the current language: the same words the server answers with. */
export function errorText(key: ErrorKey): string {
  return messageFor(key, currentLang());
}

/** antd rule from a domain check returning an error key or null. */
export function checkRule(check: (value: string) => ErrorKey | null, required = true): FormRule {
  return {
    required,
    validator: async (_rule, value: unknown) => {
      const text = typeof value === 'string' ? value.trim() : '';
      if (!required && text === '') return;
      const problem = check(text);
      if (problem) throw new Error(errorText(problem));
    },
  };
}

export const cabinNameRule = (type: CabinNodeType | 'dataItem'): FormRule =>
  checkRule((value) => (type === 'dataItem' ? checkDataItemName(value) : checkCabinName(value)));

export const ipRule: FormRule = checkRule(checkIp, false);

export interface TreeNode extends CabinNode {
  children: TreeNode[];
}

const TYPE_ORDER = (node: CabinNode) => (node.type === 'directory' ? 0 : 1);

export function sortNodes<T extends CabinNode>(nodes: T[]): T[] {
  return [...nodes].sort(
    (a, b) => TYPE_ORDER(a) - TYPE_ORDER(b) || a.sortOrder - b.sortOrder || a.name.localeCompare(b.name),
  );
}

/** The flat list as a forest; a node whose parent is not readable goes to the top. */
export function buildTree(rows: CabinNode[]): TreeNode[] {
  const byId = new Map<number, TreeNode>();
  for (const row of rows) byId.set(row.id, { ...row, children: [] });
  const roots: TreeNode[] = [];
  for (const node of byId.values()) {
    const parent = node.parentId == null ? undefined : byId.get(node.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const sortDeep = (list: TreeNode[]): TreeNode[] => {
    const sorted = sortNodes(list);
    for (const node of sorted) node.children = sortDeep(node.children);
    return sorted;
  };
  return sortDeep(roots);
}

/** Every node below the given ones (not themselves), for the delete confirmation. */
export function descendants(rows: CabinNode[], ids: number[]): CabinNode[] {
  const children = new Map<number, CabinNode[]>();
  for (const row of rows) {
    if (row.parentId == null) continue;
    const list = children.get(row.parentId) ?? [];
    list.push(row);
    children.set(row.parentId, list);
  }
  const out: CabinNode[] = [];
  const walk = (id: number) => {
    for (const child of children.get(id) ?? []) {
      out.push(child);
      walk(child.id);
    }
  };
  for (const id of ids) walk(id);
  return out;
}

/** Names from the top down to the node (itself included). */
export function pathOf(rows: CabinNode[], id: number | null): CabinNode[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const out: CabinNode[] = [];
  let current = id == null ? undefined : byId.get(id);
  const seen = new Set<number>();
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    out.unshift(current);
    current = current.parentId == null ? undefined : byId.get(current.parentId);
  }
  return out;
}

export const can = {
  read: (level: number) => level >= DATA_PERMISSION.read,
  write: (level: number) => level >= DATA_PERMISSION.write,
  admin: (level: number) => level >= DATA_PERMISSION.admin,
};

/** Node types whose pages exist: directories and data items. */
export type OpenKind = 'directory' | 'dataItem' | 'importOnly' | 'notYet';

export function openKindOf(type: CabinNodeType): OpenKind {
  if (type === 'directory' || type === 'dataItem') return type;
  if (IMPORT_ONLY_NODE_TYPES.includes(type)) return 'importOnly';
  return 'notYet';
}

const seg = (value: string | number) => encodeURIComponent(String(value));

export const paths = {
  records: (node: { refId: number | null; name: string; kind?: ItemKind; id: number }, parent?: CabinNode) =>
    `/smartdata/datavalue/${seg(node.refId ?? 0)}/${seg(node.name)}/${seg(node.kind ?? 10)}/${seg(node.id)}/${seg(
      parent?.id ?? 0,
    )}/${seg(parent?.name ?? '-')}`,
  formPage: (node: { refId: number | null; name: string; id: number }) =>
    `/smartdata/formpage/${seg(node.refId ?? 0)}/${seg(node.name)}/${seg(node.id)}`,
  config: (node: { refId: number | null; name: string; id: number }) =>
    `/smartdata/dataitem/config/${seg(node.refId ?? 0)}/${seg(node.name)}/${seg(node.id)}`,
  itemGroupConfig: (groupId: number | 'new') => `/smartdata/itemgroup/config/${seg(groupId)}`,
};
