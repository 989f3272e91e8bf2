import { Modal } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A form's modal: OK saves (loading while it does), Cancel or Escape closes. Rendered while
 * closed too, so its form instance is always connected.
 */
export function FormModal({
  open,
  title,
  okText,
  saving,
  onOk,
  onClose,
  width,
  children,
}: {
  open: boolean;
  title: ReactNode;
  okText?: string;
  saving: boolean;
  onOk: () => unknown;
  onClose: () => void;
  width?: number;
  children: ReactNode;
}) {
  const { t } = useTranslation('inventory');
  return (
    <Modal
      open={open}
      title={title}
      okText={okText ?? t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => void onOk()}
      onCancel={onClose}
      width={width}
      forceRender
    >
      {children}
    </Modal>
  );
}
