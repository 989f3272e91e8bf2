import type { ReportBinding } from '@platform/domain';
import { useTranslation } from 'react-i18next';
import { useDataItem } from '../../datacabin/api';

/**
 * "锅炉房 · 温度 · 最新记录": the item, field and method a cell is bound to, by their names.
 * What is not chosen yet says so ("选择数据项"), a name still loading shows "…", and an item
 * that cannot be read any more (deleted, no permission) is named as unavailable — never an id.
 */
export function useBindingText(binding: ReportBinding | null): string {
  const { t } = useTranslation('reports');
  const itemId = binding?.itemId ?? 0;
  const item = useDataItem(itemId);
  if (!binding) return '';
  let itemName: string;
  let fieldName: string;
  if (itemId <= 0) {
    itemName = t('bindNoItem', '选择数据项');
    fieldName = '';
  } else if (item.data) {
    itemName = item.data.name;
    const field = item.data.fields.find((f) => f.key === binding.field);
    fieldName = binding.field
      ? (field?.name ?? t('bindFieldGone', '字段已删除'))
      : t('bindNoField', '选择字段');
  } else if (item.isError) {
    itemName = t('bindItemGone', '数据项不可用');
    fieldName = '';
  } else {
    itemName = '…';
    fieldName = binding.field ? '…' : t('bindNoField', '选择字段');
  }
  const method = t(`datacabin:method.${binding.method}`, binding.method);
  const range = binding.range ? ` (${t(`datacabin:range.${binding.range}`, binding.range)})` : '';
  return [itemName, fieldName, `${method}${range}`].filter(Boolean).join(' · ');
}

export function BindingLabel({ binding }: { binding: ReportBinding }) {
  const text = useBindingText(binding);
  return <span title={text}>{text}</span>;
}
