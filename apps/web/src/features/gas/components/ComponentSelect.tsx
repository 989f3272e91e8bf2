import { Select, type SelectProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useComponents } from '../api';

/**
 * A component of the company's gas properties, by formula ("CO2 · 二氧化碳"); searchable by
 * formula or name. `exclude`: formulas taken elsewhere in the form (the balance gas, the main one).
 */
export function ComponentSelect({
  exclude = [],
  ...props
}: Omit<SelectProps<string>, 'options'> & { exclude?: readonly string[] }) {
  const { t } = useTranslation('gas');
  const components = useComponents();
  const options = (components.data ?? [])
    .filter((c) => !exclude.includes(c.formula) || c.formula === props.value)
    .map((c) => ({ value: c.formula, label: `${c.formula} · ${c.name}`, search: `${c.formula} ${c.name}` }));
  return (
    <Select<string>
      showSearch={{ optionFilterProp: 'search' }}
      loading={components.isLoading}
      placeholder={t('fields.pickComponent', '选择组分')}
      notFoundContent={
        components.isError
          ? t('properties.loadFailed', '无法加载组分列表')
          : t('properties.noComponents', '没有可选的组分，请先在气体属性中添加')
      }
      options={options}
      popupMatchSelectWidth={false}
      {...props}
    />
  );
}
