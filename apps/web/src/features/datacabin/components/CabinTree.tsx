import { FolderFilled, FolderOpenFilled, HomeOutlined } from '@ant-design/icons';
import { Empty, Spin, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { type Key, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CabinNode } from '../api';
import { buildTree, pathOf, type TreeNode } from '../cabin';

export const ROOT_KEY = 'root';

/** The directory tree of the cabin (directories only); the top of the company's tree is "root". */
export function CabinTree({
  rows,
  loading,
  selected,
  onSelect,
}: {
  rows: CabinNode[];
  loading: boolean;
  selected: number | null;
  onSelect: (id: number | null) => void;
}) {
  const { t } = useTranslation('datacabin');
  const [expanded, setExpanded] = useState<Key[]>([ROOT_KEY]);

  const treeData = useMemo<DataNode[]>(() => {
    const convert = (nodes: TreeNode[]): DataNode[] =>
      nodes
        .filter((n) => n.type === 'directory')
        .map((n) => ({
          key: n.id,
          title: <span data-testid={`tree-node-${n.name}`}>{n.name}</span>,
          icon: ({ expanded: open }: { expanded?: boolean }) =>
            open ? (
              <FolderOpenFilled style={{ color: '#f5b83d' }} />
            ) : (
              <FolderFilled style={{ color: '#f5b83d' }} />
            ),
          children: convert(n.children),
        }));
    return [
      {
        key: ROOT_KEY,
        title: <span data-testid="tree-node-root">{t('cabin.root', '数据舱')}</span>,
        icon: <HomeOutlined />,
        children: convert(buildTree(rows)),
      },
    ];
  }, [rows, t]);

  // keep the way to the selected directory open (after a search jump or a move)
  useEffect(() => {
    if (selected == null) return;
    const ancestors = pathOf(rows, selected)
      .slice(0, -1)
      .map((n) => n.id as Key);
    setExpanded((keys) => [...new Set([...keys, ROOT_KEY, ...ancestors])]);
  }, [selected, rows]);

  if (loading && rows.length === 0) {
    return (
      <div className="dc-tree-loading">
        <Spin />
      </div>
    );
  }
  if (!loading && treeData.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;

  return (
    <Tree
      className="dc-tree"
      showIcon
      blockNode
      treeData={treeData}
      expandedKeys={expanded}
      onExpand={(keys) => setExpanded(keys)}
      selectedKeys={[selected ?? ROOT_KEY]}
      onSelect={(keys) => {
        const key = keys[0];
        if (key === undefined) return;
        onSelect(key === ROOT_KEY ? null : Number(key));
      }}
      data-testid="cabin-tree"
    />
  );
}
