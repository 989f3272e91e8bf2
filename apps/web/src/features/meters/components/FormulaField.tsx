import { aggregateFormula, remainderFormula } from '@platform/domain';
import { Button, Form, Input, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FormulaCheck, type Meter, meterApi } from '../api';
import { underField } from '../format';

const CHECK_DELAY_MS = 400;

/**
 * A virtual meter's formula, checked by the server as it is typed (debounced; an answer to an
 * older text is dropped): the meters it names, or the issue with the text marked at its
 * position. The ready-made formulas (sum of a meter's children, the meter less its children)
 * are written into the field, where they are checked and can be changed like typed ones.
 */
export function FormulaField({
  meters,
  self,
  serverError,
}: {
  meters: Meter[];
  /** the meter being edited, or the code typed for a new one (so a cycle through it is named) */
  self: { id?: number; code?: string };
  /** a refusal of the save on `formula` */
  serverError: string | null;
}) {
  const { t } = useTranslation('meters');
  const form = Form.useFormInstance();
  const formula: string = Form.useWatch('formula', form) ?? '';
  const [check, setCheck] = useState<FormulaCheck | null>(null);
  const [checking, setChecking] = useState(false);
  const [base, setBase] = useState<number | undefined>();
  const latest = useRef(0);
  const selfKey = `${self.id ?? ''}|${self.code ?? ''}`;

  useEffect(() => {
    const text = formula.trim();
    const ticket = ++latest.current;
    if (!text) {
      setCheck(null);
      setChecking(false);
      return;
    }
    setChecking(true);
    const timer = window.setTimeout(() => {
      const [id, code] = selfKey.split('|');
      meterApi
        .checkFormula(text, id ? { id: Number(id) } : code ? { code } : {})
        .then((r) => ticket === latest.current && setCheck(r))
        .catch(() => ticket === latest.current && setCheck(null))
        .finally(() => ticket === latest.current && setChecking(false));
    }, CHECK_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [formula, selfKey]);

  const parents = meters.filter((m) => m.id !== self.id && meters.some((c) => c.parentMeterId === m.id));
  const childrenCodes = (id: number) => meters.filter((c) => c.parentMeterId === id).map((c) => c.code);
  const preset = (kind: 'sum' | 'remainder') => {
    const m = meters.find((x) => x.id === base);
    if (!m) return;
    const codes = childrenCodes(m.id);
    form.setFieldValue('formula', kind === 'sum' ? aggregateFormula(codes) : remainderFormula(m.code, codes));
  };

  const issue = check?.issue ?? null;
  const error = serverError ?? (issue ? underField(issue.message, 'formula') : null);
  const at = issue?.at;
  const marked =
    issue && at != null && formula.length > 0 ? (
      <code className="meter-formula-mark" data-testid="meter-formula-mark">
        {formula.slice(0, at)}
        <mark>{formula.slice(at, at + Math.max(1, issue.name?.length ?? 1)) || ' '}</mark>
        {formula.slice(at + Math.max(1, issue.name?.length ?? 1))}
      </code>
    ) : null;

  const help = error ? (
    <div data-testid="meter-formula-issue">
      <div>{error}</div>
      {marked}
    </div>
  ) : checking ? (
    <span>{t('formula.checking', '正在检查…')}</span>
  ) : check?.ok ? (
    <span className="meter-formula-ok" data-testid="meter-formula-ok">
      {t('formula.ok', '公式正确，引用电表：')}
      {check.refs.length > 0 ? check.refs.join('、') : t('formula.noRefs', '无')}
    </span>
  ) : (
    t('formula.help', '用电表编码书写，支持 + - * /、括号和 abs()，例如 A - 2*B；含空格的编码加引号')
  );

  return (
    <>
      <Form.Item
        name="formula"
        label={t('fields.formula', '公式')}
        required
        validateStatus={error ? 'error' : check?.ok ? 'success' : undefined}
        help={help}
      >
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 6 }}
          maxLength={1000}
          spellCheck={false}
          placeholder="A - 2*B"
          data-testid="meter-formula"
        />
      </Form.Item>
      <Form.Item label={t('formula.presets', '常用公式')}>
        <Space wrap>
          <Select
            className="meter-preset-base"
            placeholder={t('formula.presetBase', '选择有子电表的电表')}
            value={base}
            onChange={setBase}
            options={parents.map((m) => ({ value: m.id, label: `${m.name} (${m.code})` }))}
            notFoundContent={t('formula.noParents', '还没有带子电表的电表')}
            data-testid="meter-preset-base"
          />
          <Button disabled={base == null} onClick={() => preset('sum')} data-testid="meter-preset-sum">
            {t('formula.sum', '子电表之和')}
          </Button>
          <Button
            disabled={base == null}
            onClick={() => preset('remainder')}
            data-testid="meter-preset-remainder"
          >
            {t('formula.remainder', '总表减子电表')}
          </Button>
        </Space>
      </Form.Item>
      {meters.length > 0 && (
        <Form.Item label={t('formula.codes', '可用电表编码')}>
          <div className="meter-codes">
            {meters
              .filter((m) => m.id !== self.id)
              .map((m) => (
                <Tag
                  key={m.id}
                  className="meter-code-tag"
                  onClick={() => {
                    const current: string = form.getFieldValue('formula') ?? '';
                    const sep = current.trim() === '' || /[+\-*/(]\s*$/.test(current) ? '' : ' + ';
                    form.setFieldValue('formula', `${current}${sep}${formulaRefSafe(m.code)}`);
                  }}
                >
                  <Typography.Text code>{m.code}</Typography.Text> {m.name}
                </Tag>
              ))}
          </div>
        </Form.Item>
      )}
    </>
  );
}

/** A code as a formula names it (quoted when it is not a bare token). */
function formulaRefSafe(code: string): string {
  return aggregateFormula([code]);
}
