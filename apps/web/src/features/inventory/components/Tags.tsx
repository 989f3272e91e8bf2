import { STOCK_STATUS_IDS } from '@platform/domain';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Counts } from '../api';
import { type CategoryKind, langOf, type OrderState, STATE_TAG, STOCK_TAG, stockWord } from '../model';

export function StockTag({ status }: { status: number }) {
  const { i18n } = useTranslation('inventory');
  return (
    <Tag color={STOCK_TAG[status]} className="inv-tag" data-testid="inv-stock-status">
      {stockWord(status, langOf(i18n.language))}
    </Tag>
  );
}

export function StateTag({ state }: { state: OrderState }) {
  const { t } = useTranslation('inventory');
  return (
    <Tag color={STATE_TAG[state]} className="inv-tag" data-testid="inv-order-state">
      {t(`state.${state}`)}
    </Tag>
  );
}

const KIND_TAG: Record<CategoryKind, string> = { own: 'geekblue', sim: 'cyan', other: 'default' };

export function KindTag({ kind }: { kind: CategoryKind }) {
  const { t } = useTranslation('inventory');
  return (
    <Tag color={KIND_TAG[kind]} className="inv-tag">
      {t(`kind.${kind}`)}
    </Tag>
  );
}

/**
 * What a category or a warehouse holds: serial-numbered goods as a small tag a stock status
 * (those with units), counted goods as the quantity and its unit.
 */
export function Holdings({
  counts,
  quantity,
  unit,
}: {
  counts: Counts | null;
  quantity: number | null;
  unit?: string;
}) {
  const { t, i18n } = useTranslation('inventory');
  if (!counts)
    return (
      <span className="inv-number" data-testid="inv-quantity">
        {quantity ?? 0} {unit}
      </span>
    );
  const held = STOCK_STATUS_IDS.filter((id) => (counts[id] ?? 0) > 0);
  if (held.length === 0) return <span className="inv-muted">{t('common.noUnits')}</span>;
  return (
    <span className="inv-tags" data-testid="inv-counts">
      {held.map((id) => (
        <Tag key={id} color={STOCK_TAG[id]} className="inv-tag" data-testid={`inv-count-${id}`}>
          {stockWord(id, langOf(i18n.language))} {counts[id]}
        </Tag>
      ))}
    </span>
  );
}
