/**
 * Registering a batch of gateways: serial numbers pasted or typed (one per line; commas and
 * spaces also separate them) and their model. The batch is checked as the server checks it
 * (each a serial number, none twice, at most 500) before it is sent; a refusal of the server
 * (one registered already) names the serial number it is about. All or nothing.
 */
import { messageFor, normalizeSerialNumber } from '@platform/domain';
import { Form, Input, Modal, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, reportFailure } from '../../../app/http/client';
import { currentLang } from '../../../app/i18n';
import { validated } from '../../../shared/validated';
import { type GatewaySecret, registryApi } from '../api';

/** the server's limit on one batch */
export const BATCH_MAX = 500;
const MODEL = /^[\x20-\x7e]{1,32}$/;

export function splitSerialNumbers(text: string): string[] {
  return text
    .split(/[\s,;，；]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The first problem of a typed batch, in the catalogue's words, or null. */
export function batchProblem(
  typed: readonly string[],
  words: { required: string; tooMany: string },
): string | null {
  if (typed.length === 0) return words.required;
  if (typed.length > BATCH_MAX) return words.tooMany;
  const seen = new Set<string>();
  for (const text of typed) {
    const sn = normalizeSerialNumber(text);
    if (!sn) return `${text}: ${messageFor('serialNumberInvalid', currentLang())}`;
    if (seen.has(sn)) return messageFor('serialNumberRepeated', currentLang(), { sn });
    seen.add(sn);
  }
  return null;
}

interface Values {
  serialNumbers: string;
  model: string;
}

export function RegisterModal({
  open,
  onClose,
  onRegistered,
}: {
  open: boolean;
  onClose: () => void;
  onRegistered: (secrets: GatewaySecret[]) => void;
}) {
  const { t } = useTranslation('systemMaintenance');
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const text = Form.useWatch('serialNumbers', form) ?? '';
  const count = useMemo(() => splitSerialNumbers(text).length, [text]);

  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  const submit = async () => {
    const values = await validated(form);
    if (!values) return;
    const typed = splitSerialNumbers(values.serialNumbers);
    setSaving(true);
    try {
      const envelope = await registryApi.register({
        serialNumbers: typed.map((s) => normalizeSerialNumber(s) ?? s),
        model: values.model.trim(),
      });
      onRegistered(envelope.data.gateways);
    } catch (error) {
      if (!(error instanceof ApiError)) return;
      const field = (error.data as { field?: unknown } | null)?.field;
      const index = typeof field === 'string' ? /^serialNumbers\[(\d+)\]$/.exec(field)?.[1] : undefined;
      if (index !== undefined) {
        const sn = typed[Number(index)] ?? '';
        // "already registered" names the number itself; the others are said of the number
        const text = error.message.includes(sn.toUpperCase()) ? error.message : `${sn}: ${error.message}`;
        form.setFields([{ name: 'serialNumbers', errors: [text] }]);
      } else if (field === 'model') {
        form.setFields([{ name: 'model', errors: [error.message] }]);
      } else {
        reportFailure({ code: error.code, message: error.message, data: null });
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('register.title', '登记网关')}
      okText={t('register.ok', '登记并生成密钥')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      width={600}
      okButtonProps={{ 'data-testid': 'register-ok' } as never}
    >
      <Typography.Paragraph type="secondary">
        {t(
          'register.intro',
          '出厂前登记网关的序列号，每个网关生成一个密钥，只显示一次，请下载 CSV 用于烧录。登记不会把网关分配给任何公司，公司通过绑定获得网关。',
        )}
      </Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item
          name="serialNumbers"
          label={t('register.serialNumbers', '序列号（每行一个）')}
          extra={t('register.count', '共 {{n}} 个', { n: count })}
          rules={[
            {
              validator: async (_rule, value: unknown) => {
                const problem = batchProblem(splitSerialNumbers(typeof value === 'string' ? value : ''), {
                  required: t('register.snRequired', '请输入序列号'),
                  tooMany: t('register.tooMany', '一次最多登记 {{n}} 个', { n: BATCH_MAX }),
                });
                if (problem) throw new Error(problem);
              },
            },
          ]}
        >
          <Input.TextArea
            autoSize={{ minRows: 5, maxRows: 12 }}
            placeholder={'SDG2A0001\nSDG2A0002'}
            className="dv-mono"
            data-testid="register-sns"
          />
        </Form.Item>
        <Form.Item
          name="model"
          label={t('register.model', '型号')}
          rules={[
            { required: true, whitespace: true, message: t('register.modelRequired', '请输入型号') },
            {
              validator: async (_rule, value: unknown) => {
                const model = typeof value === 'string' ? value.trim() : '';
                if (model && !MODEL.test(model))
                  throw new Error(t('register.modelRule', '型号为 1 至 32 个英文字母、数字或符号'));
              },
            },
          ]}
        >
          <Input placeholder="SDG-200" maxLength={32} data-testid="register-model" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
