import { DatePicker, Form, Modal, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickerNow } from '../../../shared/time';
import type { SalesOrder } from '../api';

/**
 * Record an order paid on a day (today in the company's zone unless changed). `onPay` answers
 * once the call settled; the modal stays open on a refusal.
 */
export function PayModal({
  order,
  onClose,
  onPay,
}: {
  order: SalesOrder | null;
  onClose: () => void;
  onPay: (order: SalesOrder, paidOn: string) => Promise<boolean>;
}) {
  const { t } = useTranslation('sales');
  const [day, setDay] = useState<Dayjs | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (order) setDay(pickerNow());
  }, [order]);

  const ok = async () => {
    if (!order || !day) return;
    setBusy(true);
    try {
      if (await onPay(order, day.format('YYYY-MM-DD'))) onClose();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={order != null}
      title={order ? t('orders.payTitle', { number: order.number }) : ''}
      okText={t('orders.payOk')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !day, 'data-testid': 'sales-pay-ok' }}
      confirmLoading={busy}
      onOk={ok}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('orders.payHint')}</Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label={t('fields.paidOn')} required>
          <DatePicker
            value={day}
            onChange={setDay}
            allowClear={false}
            className="sales-date"
            data-testid="sales-pay-date"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
