import { Button, Card, Form, Input } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseSerials, refusedOf } from '../model';

/**
 * A card of serial numbers scanned or pasted into a box (one a line, or separated by commas or spaces),
 * counted as they come, and sent with the button. A refusal shows under the box: the server's
 * message, and each refused serial number with why. The box empties once the call succeeded.
 * The data-testids are `${testPrefix}` on the card, `${testPrefix}-sns` and `${testPrefix}-submit`.
 */
export function SerialsCard({
  words,
  testPrefix,
  note,
  extra,
  onSubmit,
}: {
  /** the card's words: `${words}.title`, `.label`, `.placeholder` and `.submit` */
  words: 'record' | 'scan';
  testPrefix: string;
  /** after the count: what the plan still takes, say */
  note?: ReactNode;
  /** beside the button */
  extra?: ReactNode;
  /** rejects with the http client's error when the server refused */
  onSubmit: (sns: string[]) => Promise<unknown>;
}) {
  const { t } = useTranslation('production');
  const [form] = Form.useForm<{ sns: string }>();
  const [busy, setBusy] = useState(false);
  const text = Form.useWatch('sns', form) ?? '';
  const sns = parseSerials(text);

  const submit = async () => {
    if (sns.length === 0) {
      form.setFields([{ name: 'sns', errors: [t('rules.sns')] }]);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(sns);
      form.resetFields();
    } catch (error) {
      const { message, refusals } = refusedOf(error);
      const each = refusals.flatMap((r) =>
        r.sn && r.message && r.message !== message ? [`${r.sn}: ${r.message}`] : [],
      );
      form.setFields([{ name: 'sns', errors: [message, ...each] }]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      variant="borderless"
      title={t(`${words}.title`)}
      className="production-card"
      data-testid={testPrefix}
    >
      <Form form={form} layout="vertical" data-testid={`${testPrefix}-form`}>
        <Form.Item name="sns" label={t(`${words}.label`)} className="production-sns-item">
          <Input.TextArea
            autoSize={{ minRows: 4, maxRows: 10 }}
            placeholder={t(`${words}.placeholder`)}
            spellCheck={false}
            className="production-sns"
            data-testid={`${testPrefix}-sns`}
          />
        </Form.Item>
        <div className="production-muted production-sns-count" data-testid={`${testPrefix}-count`}>
          {t('units.parsed', { count: sns.length })}
          {note ? <> · {note}</> : null}
        </div>
        <div className="production-form-actions">
          {extra}
          <Button type="primary" loading={busy} onClick={submit} data-testid={`${testPrefix}-submit`}>
            {t(`${words}.submit`)}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
