import { FolderFilled, HomeOutlined } from '@ant-design/icons';
import { Modal, TreeSelect, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CabinNode } from '../api';
import { buildTree, can, errorText, type TreeNode } from '../cabin';

/**
 * Choose the target directory of a move or copy (or the top of the cabin). Directories the caller cannot write into
 * and, for a move, the moved entries themselves and everything below them are not offered.
 */
export function TargetModal({
  open,
  action,
  rows,
  moving,
  onClose,
  onSubmit,
}: {
  open: boolean;
  action: 'move' | 'copy';
  rows: CabinNode[];
  moving: CabinNode[];
  onClose: () => void;
  /** null: the top of the cabin */
  onSubmit: (targetId: number | null) => Promise<boolean>;
}) {
  const { t } = useTranslation('datacabin');
  const [target, setTarget] = useState<number | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (open) {
      setTarget(undefined);
      setError(null);
    }
  }, [open]);

  const treeData = useMemo(() => {
    const excluded = new Set(action === 'move' ? moving.map((n) => n.id) : []);
    const convert = (nodes: TreeNode[]): DataNode[] =>
      nodes
        .filter((n) => n.type === 'directory' && !excluded.has(n.id))
        .map((n) => ({
          key: n.id,
          value: n.id,
          title: n.name,
          icon: <FolderFilled style={{ color: '#f5b83d' }} />,
          disabled: !can.write(n.level),
          children: convert(n.children),
        }));
    // value 0 stands for the top of the cabin (targetId null)
    return [
      {
        key: 0,
        value: 0,
        title: t('cabin.root', '数据舱'),
        icon: <HomeOutlined />,
        children: convert(buildTree(rows)),
      },
    ];
  }, [rows, moving, action, t]);

  const submit = async () => {
    if (target == null) {
      setError(errorText('selectDirectory'));
      return;
    }
    setSaving(true);
    try {
      if (await onSubmit(target === 0 ? null : target)) onClose();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={action === 'move' ? t('cabin.moveTo', '移动到') : t('cabin.copyTo', '复制到')}
      okText={t('common.ok', '确定')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {t('cabin.selectedCount', '已选 {{count}} 项：{{names}}', {
          count: moving.length,
          names: moving.map((n) => n.name).join('、'),
        })}
      </Typography.Paragraph>
      <TreeSelect
        style={{ width: '100%' }}
        treeData={treeData as never}
        value={target}
        onChange={(value: number) => {
          setTarget(value);
          setError(null);
        }}
        placeholder={t('cabin.chooseDirectory', '选择目标目录')}
        treeDefaultExpandAll
        treeIcon
        showSearch
        treeNodeFilterProp="title"
        status={error ? 'error' : undefined}
        data-testid="cabin-target-select"
        notFoundContent={t('cabin.noDirectories', '没有可选的目录')}
      />
      {error && (
        <Typography.Text type="danger" data-testid="cabin-target-error">
          {error}
        </Typography.Text>
      )}
    </Modal>
  );
}
