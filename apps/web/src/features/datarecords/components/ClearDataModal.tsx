import { Alert, App, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { drApi } from '../api';

/** Clearing every record of an item: allowed only once the exact item name is typed again. */
export function ClearDataModal({
  itemId,
  itemName,
  open,
  onClose,
  onDone,
}: {
  itemId: number;
  itemName: string;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('datarecords');
  const { message } = App.useApp();
  const [typed, setTyped] = useState('');
  const [saving, setSaving] = useState(false);
  const matches = typed === itemName;

  const close = () => {
    setTyped('');
    onClose();
  };

  const submit = async () => {
    if (!matches) return;
    setSaving(true);
    try {
      const envelope = await drApi.clear(itemId, typed);
      message.success(envelope.message);
      onDone();
      close();
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('clear.title', '清空数据')}
      okText={t('clear.ok', '清空')}
      cancelText={t('common.cancel', '取消')}
      okButtonProps={{ danger: true, disabled: !matches, 'data-testid': 'clear-ok' }}
      confirmLoading={saving}
      onOk={submit}
      onCancel={close}
      destroyOnHidden
    >
      <Alert
        type="warning"
        showIcon
        title={t('clear.warning', '将删除“{{name}}”的全部数据，且无法恢复。', { name: itemName })}
        style={{ marginBottom: 12 }}
      />
      <Typography.Paragraph>
        {t('clear.retype', '请输入数据项名称')} <Typography.Text code>{itemName}</Typography.Text>{' '}
        {t('clear.retypeTail', '以确认：')}
      </Typography.Paragraph>
      <Input
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        status={typed && !matches ? 'error' : undefined}
        onPressEnter={submit}
        data-testid="clear-name"
      />
      {typed && !matches ? (
        <div className="dr-error-text" data-testid="clear-mismatch">
          {t('clear.mismatch', '名称不一致')}
        </div>
      ) : null}
    </Modal>
  );
}
