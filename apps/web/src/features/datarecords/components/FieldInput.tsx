import type { FieldDef } from '@platform/domain';
import { DatePicker, Input, InputNumber } from 'antd';
import { dayjsFormat, decimalsOf, pickerOf } from '../format';
import { FilesInput } from './FilesInput';

interface FieldInputProps {
  itemId: number;
  field: FieldDef;
  // biome-ignore lint/suspicious/noExplicitAny: antd Form.Item injects value/onChange of the control's own type
  value?: any;
  // biome-ignore lint/suspicious/noExplicitAny: see above
  onChange?: (value: any) => void;
  testId?: string;
}

/** The control that edits one field, by the field's type (used inside a Form.Item). */
export function FieldInput({ itemId, field, value, onChange, testId }: FieldInputProps) {
  switch (field.type) {
    case 10:
    case 1:
    case 2: {
      const precision = decimalsOf(field);
      return (
        <InputNumber
          value={value}
          onChange={onChange}
          precision={precision}
          step={precision ? 10 ** -precision : 1}
          suffix={field.unit || undefined}
          style={{ width: '100%' }}
          data-testid={testId}
        />
      );
    }
    case 4: {
      const { picker, showTime } = pickerOf(field.dateFormat);
      return (
        <DatePicker
          value={value}
          onChange={onChange}
          picker={picker}
          showTime={showTime}
          format={dayjsFormat(field.dateFormat)}
          style={{ width: '100%' }}
          data-testid={testId}
        />
      );
    }
    case 6:
      return (
        <Input.TextArea
          value={value}
          onChange={(e) => onChange?.(e.target.value)}
          autoSize={{ minRows: 3, maxRows: 8 }}
          data-testid={testId}
        />
      );
    case 8:
    case 9:
      return (
        <FilesInput
          itemId={itemId}
          field={field.key}
          picture={field.type === 8}
          value={value}
          onChange={onChange}
          testId={testId}
        />
      );
    default:
      return (
        <Input
          value={value}
          onChange={(e) => onChange?.(e.target.value)}
          suffix={field.unit || undefined}
          data-testid={testId}
        />
      );
  }
}
