import type { FrameValueResult } from '@platform/domain';
import { Typography } from 'antd';
import { useLabels } from './labels';

/** A value's decoded result, or why it has none, as the preview shows it. */
export function ResultText({ result }: { result: FrameValueResult | undefined }) {
  const { t, message } = useLabels();
  if (!result) return <span className="dc-muted">{t('preview.noFrame', '—')}</span>;
  if (!result.ok) {
    return (
      <Typography.Text type="danger" className="dc-result-error">
        {message(result.key, result.params)}
      </Typography.Text>
    );
  }
  return (
    <Typography.Text strong className="dc-mono dc-result">
      {typeof result.value === 'number' ? String(result.value) : result.value}
    </Typography.Text>
  );
}
