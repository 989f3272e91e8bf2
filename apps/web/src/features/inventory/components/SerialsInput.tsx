import { Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { MAX_SERIALS, parseSerials } from '../model';

/**
 * Serial numbers scanned or pasted, one a line (a scanner's Enter starts the next) or separated
 * by commas or spaces; says how many it holds.
 */
export function SerialsInput({
  value = '',
  onChange,
  testId,
  rows = 6,
  disabled,
}: {
  value?: string;
  onChange?: (value: string) => void;
  testId: string;
  rows?: number;
  disabled?: boolean;
}) {
  const { t } = useTranslation('inventory');
  const count = parseSerials(value).length;
  return (
    <div className="inv-serials">
      <Input.TextArea
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        autoSize={{ minRows: rows, maxRows: 14 }}
        placeholder={t('serials.placeholder')}
        spellCheck={false}
        disabled={disabled}
        className="inv-mono"
        data-testid={testId}
      />
      <div className={count > MAX_SERIALS ? 'inv-serials-count inv-over' : 'inv-serials-count'}>
        {count > MAX_SERIALS
          ? t('serials.tooMany', { count, max: MAX_SERIALS })
          : t('serials.count', { count })}
      </div>
    </div>
  );
}
