import { TreeSelect } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { type CSSProperties, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useCabinTree } from '../api';
import { buildTree, type TreeNode } from '../cabin';
import { NodeIcon } from './NodeIcon';

/**
 * Pick data items from the cabin tree (directories are only the way there). Values are data
 * item ids (the nodes' refId), as the item calls expect.
 */
export function ItemPicker({
  value,
  onChange,
  multiple,
  disabled,
  placeholder,
  status,
  testId,
  style,
}: {
  value?: number | number[] | null;
  onChange?: (value: number | number[] | undefined) => void;
  multiple?: boolean;
  disabled?: boolean;
  placeholder?: string;
  status?: 'error';
  testId?: string;
  style?: CSSProperties;
}) {
  const { t } = useTranslation('datacabin');
  const tree = useCabinTree();
  const treeData = useMemo(() => {
    const hasItem = (n: TreeNode): boolean => n.type === 'dataItem' || n.children.some((c) => hasItem(c));
    const convert = (nodes: TreeNode[]): DataNode[] =>
      nodes
        .filter((n) => (n.type === 'directory' && hasItem(n)) || (n.type === 'dataItem' && n.refId != null))
        .map((n) =>
          n.type === 'dataItem'
            ? {
                key: `i${n.refId}`,
                value: n.refId,
                title: n.name,
                icon: <NodeIcon type={n.type} kind={n.kind} />,
                isLeaf: true,
              }
            : {
                key: `d${n.id}`,
                value: `d${n.id}`,
                title: n.name,
                icon: <NodeIcon type="directory" />,
                selectable: false,
                checkable: false,
                disableCheckbox: true,
                children: convert(n.children),
              },
        ) as DataNode[];
    return convert(buildTree(tree.data ?? []));
  }, [tree.data]);

  return (
    <TreeSelect
      style={{ width: '100%', ...style }}
      treeData={treeData as never}
      value={value ?? undefined}
      onChange={(v: number | number[] | undefined) => onChange?.(v)}
      multiple={multiple}
      disabled={disabled}
      loading={tree.isLoading}
      placeholder={placeholder ?? t('item.pick', '选择数据项')}
      treeDefaultExpandAll
      treeIcon
      showSearch
      allowClear
      status={status}
      treeNodeFilterProp="title"
      data-testid={testId}
      notFoundContent={t('item.noItems', '没有可选的数据项')}
    />
  );
}
