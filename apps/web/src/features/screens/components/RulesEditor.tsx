/**
 * A bound element's threshold rules, tried top to bottom (the first that matches wins): each a
 * condition with its value (two for "between") and its effects; added, removed, moved up and
 * down. What a rule may hold is the domain's (screen.ts); the save's check names a bad one.
 */
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { RULE_OPS, type RuleEffects, SCREEN_LIMITS, type ThresholdRule } from '@platform/domain';
import { Button, Checkbox, InputNumber, Select, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Problem } from '../edit';
import { Colour, Field } from './fields';

function move<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [x] = next.splice(from, 1);
  next.splice(to, 0, x!);
  return next;
}

export function RulesEditor({
  rules,
  onChange,
  problem,
  disabled,
}: {
  rules: ThresholdRule[];
  onChange: (rules: ThresholdRule[]) => void;
  problem: Problem | null;
  disabled: boolean;
}) {
  const { t } = useTranslation('screens');
  const set = (i: number, rule: ThresholdRule) => onChange(rules.map((r, j) => (j === i ? rule : r)));
  const setEffects = (i: number, change: Partial<Record<keyof RuleEffects, unknown>>) => {
    const effects: Record<string, unknown> = { ...rules[i]!.effects, ...change };
    for (const k of Object.keys(effects))
      if (effects[k] === undefined || effects[k] === '') delete effects[k];
    set(i, { ...rules[i]!, effects: effects as RuleEffects });
  };
  return (
    <div className="scr-rules" data-testid="rules">
      {rules.length === 0 ? (
        <Typography.Text type="secondary">
          {t('rules.none', '没有阈值规则：元素按自身样式显示。')}
        </Typography.Text>
      ) : null}
      {rules.map((rule, i) => {
        const at = `rules[${i}]`;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a rule is its place in the list
          <div key={i} className="scr-rule" data-testid={`rule-${i}`}>
            <div className="scr-rule-head">
              <Typography.Text strong>{t('rules.nth', '规则 {{n}}', { n: i + 1 })}</Typography.Text>
              <Space size={0}>
                <Tooltip title={t('rules.up', '上移')}>
                  <Button
                    size="small"
                    type="text"
                    icon={<ArrowUpOutlined />}
                    disabled={disabled || i === 0}
                    aria-label={t('rules.up', '上移')}
                    onClick={() => onChange(move(rules, i, i - 1))}
                    data-testid={`rule-${i}-up`}
                  />
                </Tooltip>
                <Tooltip title={t('rules.down', '下移')}>
                  <Button
                    size="small"
                    type="text"
                    icon={<ArrowDownOutlined />}
                    disabled={disabled || i === rules.length - 1}
                    aria-label={t('rules.down', '下移')}
                    onClick={() => onChange(move(rules, i, i + 1))}
                    data-testid={`rule-${i}-down`}
                  />
                </Tooltip>
                <Tooltip title={t('rules.remove', '删除规则')}>
                  <Button
                    size="small"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    disabled={disabled}
                    aria-label={t('rules.remove', '删除规则')}
                    onClick={() => onChange(rules.filter((_, j) => j !== i))}
                    data-testid={`rule-${i}-remove`}
                  />
                </Tooltip>
              </Space>
            </div>
            <Space.Compact block>
              <Select
                value={rule.op}
                disabled={disabled}
                style={{ width: 110 }}
                options={RULE_OPS.map((op) => ({ value: op, label: t(`ops.${op}`, op) }))}
                onChange={(op) =>
                  set(
                    i,
                    op === 'between'
                      ? { ...rule, op, value2: rule.value2 ?? rule.value }
                      : { op, value: rule.value, effects: rule.effects },
                  )
                }
                data-testid={`rule-${i}-op`}
              />
            </Space.Compact>
            <div className="scr-rule-values">
              <Field
                label={rule.op === 'between' ? t('rules.from', '从') : t('rules.value', '值')}
                path={`${at}.value`}
                problem={problem}
              >
                <InputNumber
                  value={rule.value}
                  disabled={disabled}
                  onChange={(v) => set(i, { ...rule, value: typeof v === 'number' ? v : 0 })}
                  data-testid={`rule-${i}-value`}
                />
              </Field>
              {rule.op === 'between' ? (
                <Field label={t('rules.to', '到')} path={`${at}.value2`} problem={problem}>
                  <InputNumber
                    value={rule.value2}
                    disabled={disabled}
                    onChange={(v) => set(i, { ...rule, value2: typeof v === 'number' ? v : 0 })}
                    data-testid={`rule-${i}-value2`}
                  />
                </Field>
              ) : null}
            </div>
            <Field label={t('rules.effects', '效果')} path={`${at}.effects`} problem={problem}>
              <div className="scr-effects">
                <span>{t('rules.fill', '填充')}</span>
                <Colour
                  value={rule.effects.fill}
                  disabled={disabled}
                  onChange={(v) => setEffects(i, { fill: v })}
                  testId={`rule-${i}-fill`}
                />
                <span>{t('rules.color', '线条/文字')}</span>
                <Colour
                  value={rule.effects.color}
                  disabled={disabled}
                  onChange={(v) => setEffects(i, { color: v })}
                  testId={`rule-${i}-color`}
                />
                <span>{t('rules.rotate', '旋转')}</span>
                <InputNumber
                  size="small"
                  min={-360}
                  max={360}
                  value={rule.effects.rotate}
                  disabled={disabled}
                  onChange={(v) => setEffects(i, { rotate: typeof v === 'number' ? v : undefined })}
                />
                <span>{t('rules.visible', '显示')}</span>
                <Select
                  size="small"
                  allowClear
                  value={
                    rule.effects.visible === undefined ? undefined : rule.effects.visible ? 'show' : 'hide'
                  }
                  disabled={disabled}
                  placeholder="—"
                  options={[
                    { value: 'show', label: t('rules.show', '显示') },
                    { value: 'hide', label: t('rules.hide', '隐藏') },
                  ]}
                  onChange={(v) => setEffects(i, { visible: v === undefined ? undefined : v === 'show' })}
                />
                <Checkbox
                  checked={rule.effects.blink === true}
                  disabled={disabled}
                  onChange={(e) => setEffects(i, { blink: e.target.checked ? true : undefined })}
                  data-testid={`rule-${i}-blink`}
                >
                  {t('rules.blink', '闪烁')}
                </Checkbox>
              </div>
            </Field>
          </div>
        );
      })}
      <Button
        icon={<PlusOutlined />}
        block
        disabled={disabled || rules.length >= SCREEN_LIMITS.rules}
        onClick={() => onChange([...rules, { op: '>=', value: 0, effects: { fill: '#ff4d4f' } }])}
        data-testid="rule-add"
      >
        {t('rules.add', '添加规则')}
      </Button>
    </div>
  );
}
