/**
 * Small controls of the property panel: a labelled field showing a refusal, a colour, the
 * min/max range of a tank or gauge, the unit and decimals of a shown value.
 */
import { SCREEN_LIMITS } from '@platform/domain';
import { ColorPicker, Form, Input, InputNumber } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Problem } from '../edit';

/** An InputNumber's value as a number; cleared (null) it is `fallback`. */
export const num = (v: number | string | null, fallback = 0) => (typeof v === 'number' ? v : fallback);

/** A field that shows the refusal whose path is `path` (the save's or the check's). */
export function Field({
  label,
  path,
  problem,
  children,
}: {
  label: ReactNode;
  path: string;
  problem: Problem | null;
  children: ReactNode;
}) {
  const error = problem && problem.path === path ? problem.message : null;
  return (
    <Form.Item
      label={label}
      validateStatus={error ? 'error' : undefined}
      help={error ? <span data-testid={`field-error-${path}`}>{error}</span> : undefined}
      data-testid={`field-${path}`}
      className="scr-field"
    >
      {children}
    </Form.Item>
  );
}

/** A CSS colour; cleared it is '' (the type's own) or, for an optional one, undefined. */
export function Colour({
  value,
  onChange,
  disabled,
  testId,
}: {
  value: string | undefined;
  onChange: (v: string) => void;
  disabled?: boolean;
  testId?: string;
}) {
  return (
    <ColorPicker
      value={value || undefined}
      allowClear
      showText
      size="small"
      disabled={disabled}
      onChangeComplete={(c) => onChange(c.toHexString())}
      onClear={() => onChange('')}
      data-testid={testId}
    />
  );
}

/** The range a tank fills or a gauge sweeps: its min and max, side by side. */
export function RangeFields({
  min,
  max,
  onChange,
  problem,
  disabled,
}: {
  min: number;
  max: number;
  onChange: (range: { min: number; max: number }) => void;
  problem: Problem | null;
  disabled: boolean;
}) {
  const { t } = useTranslation('screens');
  return (
    <div className="scr-grid2">
      <Field label={t('config.min', '最小值')} path="config.min" problem={problem}>
        <InputNumber
          value={min}
          disabled={disabled}
          onChange={(v) => onChange({ min: num(v, min), max })}
          data-testid="config-min"
        />
      </Field>
      <Field label={t('config.max', '最大值')} path="config.max" problem={problem}>
        <InputNumber
          value={max}
          disabled={disabled}
          onChange={(v) => onChange({ min, max: num(v, max) })}
          data-testid="config-max"
        />
      </Field>
    </div>
  );
}

/** How a gauge or a text shows its value: the unit after it and its decimals, side by side. */
export function UnitFields({
  unit,
  decimals,
  onChange,
  problem,
  disabled,
}: {
  unit: string;
  decimals: number;
  onChange: (shown: { unit: string; decimals: number }) => void;
  problem: Problem | null;
  disabled: boolean;
}) {
  const { t } = useTranslation('screens');
  return (
    <div className="scr-grid2">
      <Field label={t('config.unit', '单位')} path="config.unit" problem={problem}>
        <Input
          value={unit}
          maxLength={SCREEN_LIMITS.unit}
          disabled={disabled}
          onChange={(ev) => onChange({ unit: ev.target.value, decimals })}
          data-testid="config-unit"
        />
      </Field>
      <Field label={t('config.decimals', '小数位')} path="config.decimals" problem={problem}>
        <InputNumber
          value={decimals}
          min={0}
          max={SCREEN_LIMITS.decimalsMax}
          disabled={disabled}
          onChange={(v) => onChange({ unit, decimals: num(v, decimals) })}
          data-testid="config-decimals"
        />
      </Field>
    </div>
  );
}
