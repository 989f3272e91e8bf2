import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Button, type ButtonProps, Popconfirm, Space, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A row's link button: its label as text on a wide screen, an icon named for screen readers on a phone. */
export function RowButton({ label, labelled, ...props }: ButtonProps & { label: string; labelled: boolean }) {
  return (
    <Button type="link" size="small" aria-label={label} {...props}>
      {labelled ? label : null}
    </Button>
  );
}

/**
 * Edit and delete of a list's row, the delete asked for again; on a phone (`labelled` false) as
 * icons. The buttons' data-testids are `${testPrefix}-edit-${testKey}` and `${testPrefix}-delete-${testKey}`.
 */
export function RowActions({
  labelled,
  testPrefix,
  testKey,
  onEdit,
  onDelete,
  deleteConfirm,
  deleteBlocked,
  leading,
  wrap,
}: {
  labelled: boolean;
  testPrefix: string;
  testKey: string | number;
  onEdit: () => void;
  /** on confirming; a promise keeps the confirm button loading until it settles */
  onDelete: () => unknown;
  /** the confirmation's question */
  deleteConfirm: string;
  /** why the row cannot be deleted: the delete button is disabled, with this as its tooltip */
  deleteBlocked?: string;
  /** buttons before edit */
  leading?: ReactNode;
  wrap?: boolean;
}) {
  const { t } = useTranslation('gas');
  const edit = t('common.edit', '编辑');
  const del = t('common.delete', '删除');
  return (
    <Space size={0} wrap={wrap}>
      {leading}
      <RowButton
        label={edit}
        labelled={labelled}
        icon={<EditOutlined />}
        onClick={onEdit}
        data-testid={`${testPrefix}-edit-${testKey}`}
      />
      {deleteBlocked ? (
        <Tooltip title={deleteBlocked}>
          <RowButton label={del} labelled={labelled} danger disabled icon={<DeleteOutlined />} />
        </Tooltip>
      ) : (
        <Popconfirm
          title={deleteConfirm}
          okText={del}
          okButtonProps={{ danger: true }}
          cancelText={t('common.cancel', '取消')}
          onConfirm={() => onDelete()}
        >
          <RowButton
            label={del}
            labelled={labelled}
            danger
            icon={<DeleteOutlined />}
            data-testid={`${testPrefix}-delete-${testKey}`}
          />
        </Popconfirm>
      )}
    </Space>
  );
}
