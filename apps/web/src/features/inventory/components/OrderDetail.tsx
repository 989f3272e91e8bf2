import { CheckOutlined, CloseOutlined, DownOutlined, EditOutlined, PrinterOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Dropdown, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useViewName } from '../../../app/layout/tags';
import { useHasCode } from '../../../shared/hasCode';
import { formatTime } from '../../../shared/time';
import { orderDetailPath } from '../../sales/paths';
import { type OrderDetail as Detail, inventoryApi, inventoryKeys, useOrder } from '../api';
import { inventoryPaths, langOf, type OrderKind, type Refused, refusedOf } from '../model';
import { AddSerials } from './AddSerials';
import { CountedLines } from './CountedLines';
import { BackLink, DetailFallback, DetailHead } from './DetailFrame';
import { OrderModal } from './OrderModal';
import { RefusalAlert } from './RefusalAlert';
import { SerialLines } from './SerialLines';
import { KindTag, StateTag } from './Tags';

const LANGS = ['zh', 'en'] as const;

/**
 * One entry or exit order: its header (edited while open), its serial-numbered lines (added by
 * scan or paste, removed by selection), its counted lines, confirm and cancel, and its printed
 * note (a warehouse entry note, or the delivery note). Once confirmed or cancelled it is read only.
 */
export function OrderDetail({ kind, id }: { kind: OrderKind; id: number }) {
  const { t, i18n } = useTranslation('inventory');
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const order = useOrder(id);
  const [editing, setEditing] = useState(false);
  const [printing, setPrinting] = useState(false);
  const [refused, setRefused] = useState<Refused | null>(null);
  const has = useHasCode();
  const seesSales = has('ss_order_management') || has('ss_submit_order');
  useViewName(order.data?.number);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: inventoryKeys.all });

  const back = (
    <BackLink to={inventoryPaths.list(kind)} label={t(`order.${kind}.back`)} testId="inv-order-back" />
  );
  if (!order.data)
    return <DetailFallback query={order} back={back} failed={t('detail.loadFailed')} testId="inv-order" />;
  const data: Detail = order.data;
  const open = data.state === 'open';
  const exit = data.kind === 'exit';
  const units = data.lines.filter((l) => l.sn !== null).length;
  // counted goods: what an exit or an entry of other goods may hold, and what a closed order held
  const showCounted = (open && (exit || data.source === 'other')) || data.lines.some((l) => l.sn === null);

  const print = async (lang: 'zh' | 'en') => {
    setPrinting(true);
    try {
      await inventoryApi.downloadNote(data, lang);
    } catch {
      // the download helper showed the error
    } finally {
      setPrinting(false);
    }
  };

  const close = (action: 'confirm' | 'cancel') =>
    modal.confirm({
      title: t(`detail.${action}Title`, { number: data.number }),
      content: t(`detail.${action}Hint.${data.kind}`, { units, warehouse: data.warehouse }),
      okText: action === 'confirm' ? t(`detail.confirm.${data.kind}`) : t('detail.cancelOrder'),
      okButtonProps: { danger: action === 'cancel' },
      cancelText: t('common.back'),
      onOk: async () => {
        setRefused(null);
        try {
          const envelope = await (action === 'confirm' ? inventoryApi.confirm(id) : inventoryApi.cancel(id));
          message.success(envelope.message);
          refresh();
        } catch (error) {
          setRefused(refusedOf(error));
        }
      },
    });

  const uiLang = langOf(i18n.language);
  const printLabel = t(`detail.print.${data.kind}`);

  return (
    <div className="inv-detail" data-testid="inv-order">
      <Card variant="borderless">
        <DetailHead
          back={back}
          title={data.number}
          titleTestId="inv-order-number"
          mono
          tags={
            <>
              <StateTag state={data.state} />
              {data.source ? <KindTag kind={data.source} /> : null}
            </>
          }
          extra={
            <div className="inv-actions">
              <Space.Compact>
                <Button
                  type={exit ? 'primary' : 'default'}
                  ghost={exit && open}
                  icon={<PrinterOutlined />}
                  loading={printing}
                  onClick={() => print(uiLang)}
                  data-testid="inv-order-print"
                >
                  {printLabel}
                </Button>
                <Dropdown
                  menu={{
                    items: LANGS.map((l) => ({ key: l, label: t(`detail.printIn.${l}`) })),
                    onClick: ({ key }) => void print(key as 'zh' | 'en'),
                  }}
                >
                  <Button
                    type={exit ? 'primary' : 'default'}
                    ghost={exit && open}
                    icon={<DownOutlined />}
                    aria-label={t('detail.printLang')}
                    data-testid="inv-order-print-lang"
                  />
                </Dropdown>
              </Space.Compact>
              {open ? (
                <>
                  <Button
                    icon={<EditOutlined />}
                    onClick={() => setEditing(true)}
                    data-testid="inv-order-edit"
                  >
                    {t('common.edit')}
                  </Button>
                  <Button
                    danger
                    icon={<CloseOutlined />}
                    onClick={() => close('cancel')}
                    data-testid="inv-order-cancel"
                  >
                    {t('detail.cancelOrder')}
                  </Button>
                  <Button
                    type="primary"
                    icon={<CheckOutlined />}
                    onClick={() => close('confirm')}
                    data-testid="inv-order-confirm"
                  >
                    {t(`detail.confirm.${data.kind}`)}
                  </Button>
                </>
              ) : null}
            </div>
          }
        />
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 2, lg: 3 }}
          data-testid="inv-order-header"
          items={[
            ...(exit
              ? [
                  { key: 'customer', label: t('fields.customer'), children: data.customer },
                  { key: 'contact', label: t('fields.contact'), children: data.contact || '—' },
                  { key: 'phone', label: t('fields.phone'), children: data.phone || '—' },
                  { key: 'address', label: t('fields.address'), children: data.address || '—' },
                  ...(data.salesOrderId && data.salesOrderNumber
                    ? [
                        {
                          key: 'salesOrder',
                          label: t('fields.salesOrder'),
                          children: seesSales ? (
                            <Link
                              to={orderDetailPath({ id: data.salesOrderId, number: data.salesOrderNumber })}
                              data-testid="inv-order-sale-link"
                            >
                              {data.salesOrderNumber}
                            </Link>
                          ) : (
                            data.salesOrderNumber
                          ),
                        },
                      ]
                    : []),
                ]
              : []),
            { key: 'warehouse', label: t('fields.warehouse'), children: data.warehouse },
            { key: 'createdAt', label: t('fields.createdAt'), children: formatTime(data.createdAt) },
            ...(data.closedAt
              ? [{ key: 'closedAt', label: t('fields.closedAt'), children: formatTime(data.closedAt) }]
              : []),
            { key: 'notes', label: t('fields.notes'), children: data.notes || '—' },
          ]}
        />
        {open ? null : (
          <Alert
            type="info"
            showIcon
            className="inv-alert-top"
            title={t(`detail.readOnly.${data.state}`)}
            data-testid="inv-order-readonly"
          />
        )}
      </Card>
      <Card variant="borderless" className="inv-card-gap">
        <RefusalAlert refused={refused} onClose={() => setRefused(null)} testId="inv-order-refusal" />
        {open ? <AddSerials order={data} onDone={refresh} /> : null}
        <SerialLines order={data} editable={open} onDone={refresh} onRefused={setRefused} />
        {showCounted ? <CountedLines order={data} editable={open} onDone={refresh} /> : null}
      </Card>
      <OrderModal
        kind={data.kind}
        open={editing}
        editing={data}
        onClose={() => setEditing(false)}
        onDone={refresh}
      />
    </div>
  );
}
