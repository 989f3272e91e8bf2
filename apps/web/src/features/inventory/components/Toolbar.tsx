import { Input, Select } from 'antd';

/** A list's search: Enter or the button searches, clearing shows all. */
export function SearchBox({
  placeholder,
  onSearch,
  testId,
}: {
  placeholder: string;
  onSearch: (value: string | undefined) => void;
  testId: string;
}) {
  return (
    <Input.Search
      className="inv-search"
      allowClear
      placeholder={placeholder}
      onSearch={(value) => onSearch(value.trim() || undefined)}
      data-testid={testId}
    />
  );
}

/** A list's filter: its placeholder says "all", clearing it filters nothing. */
export function FilterSelect<V extends string | number>({
  label,
  placeholder,
  value,
  options,
  onChange,
  testId,
  search = false,
}: {
  label: string;
  placeholder: string;
  value: V | undefined;
  options: Array<{ value: V; label: string }>;
  onChange: (value: V | undefined) => void;
  testId: string;
  search?: boolean;
}) {
  return (
    <Select<V>
      allowClear
      showSearch={search ? { optionFilterProp: 'label' } : false}
      className="inv-filter"
      placeholder={placeholder}
      value={value}
      options={options}
      onChange={(v) => onChange(v ?? undefined)}
      aria-label={label}
      data-testid={testId}
    />
  );
}
