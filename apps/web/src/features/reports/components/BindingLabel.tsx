import type { ReportBinding } from '@platform/domain';
import { useTranslation } from 'react-i18next';
import { useDataItem } from '../../datacabin/api';

/** "锅炉房.温度 · 最新值": the item, field and method a cell is bound to. */
export function useBindingText(binding: ReportBinding | null): string {
  const { t } = useTranslation('reports');
  const item = useDataItem(binding?.itemId ?? 0);
  if (!binding) return '';
  const itemName = item.data?.name ?? `#${binding.itemId}`;
  const field = item.data?.fields.find((f) => f.key === binding.field);
  const method = t(`datacabin:method.${binding.method}`, binding.method);
  const range = binding.range ? ` · ${t(`datacabin:range.${binding.range}`, binding.range)}` : '';
  return `${itemName}.${field?.name ?? binding.field} · ${method}${range}`;
}

export function BindingLabel({ binding }: { binding: ReportBinding }) {
  const text = useBindingText(binding);
  return <span title={text}>{`{${text}}`}</span>;
}
