/** Small controls of the property panel: a labelled field showing a refusal, a colour. */
import { ColorPicker, Form } from 'antd';
import type { ReactNode } from 'react';
import type { Problem } from '../edit';

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
