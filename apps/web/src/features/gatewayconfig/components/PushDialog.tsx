import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePush } from '../api';
import { PushProgress } from './PushProgress';

/** The push just made, live until the gateway's answer ends it. */
export function PushDialog({
  deviceId,
  pushId,
  onClose,
}: {
  deviceId: number;
  pushId: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('gatewayconfig');
  const push = usePush(deviceId, pushId);
  return (
    <Modal
      open={pushId != null}
      title={t('push.title')}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('push.close')}</Button>}
      destroyOnHidden
    >
      {push.data && <PushProgress push={push.data} />}
    </Modal>
  );
}
