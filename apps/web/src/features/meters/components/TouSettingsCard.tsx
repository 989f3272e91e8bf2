import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { TOU_PERIODS, type TouPeriod } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Checkbox, InputNumber, Skeleton, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/http/client';
import { useHasCode } from '../../../shared/hasCode';
import { LoadFailed } from '../../../shared/LoadFailed';
import { type HourRange, meterApi, meterKeys, type Tou, useTou } from '../api';
import { hourText, TOU_COLORS, underField } from '../format';
import '../meters.css';

type Ranges = Record<TouPeriod, HourRange[]>;
type Prices = Partial<Record<TouPeriod, number | null>>;

const EDIT_CODE = 'sys_company_info';

/**
 * The company's time-of-use tariff (company settings): the hours of sharp, peak, flat and
 * valley in the company's clock (a range may run past midnight, 23 → 7) and the price of each
 * in yuan per kWh (kept in cents). The server refuses hours that leave a gap or overlap and
 * names it; price rules come back as warnings. Read only without sys_company_info.
 */
export function TouSettingsCard() {
  const { t } = useTranslation('meters');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const canEdit = useHasCode()(EDIT_CODE);
  const tou = useTou();
  const [ranges, setRanges] = useState<Ranges>({ sharp: [], peak: [], flat: [], valley: [] });
  const [prices, setPrices] = useState<Prices>({});
  const [largeLoadGap, setLargeLoadGap] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [warnings, setWarnings] = useState<Tou['warnings']>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!tou.data) return;
    setRanges(Object.fromEntries(TOU_PERIODS.map((p) => [p, [...(tou.data.schedule[p] ?? [])]])) as Ranges);
    setPrices(tou.data.prices);
    setLargeLoadGap(tou.data.largeLoadGap);
    setWarnings(tou.data.warnings);
  }, [tou.data]);

  const setRange = (period: TouPeriod, i: number, key: 'from' | 'to', value: number | null) =>
    setRanges((r) => ({
      ...r,
      [period]: r[period].map((x, n) => (n === i ? { ...x, [key]: value ?? 0 } : x)),
    }));

  const save = async () => {
    setSaving(true);
    setRefusal(null);
    try {
      const envelope = await meterApi.saveTou({
        schedule: ranges,
        prices: Object.fromEntries(
          Object.entries(prices).filter((e): e is [string, number] => typeof e[1] === 'number'),
        ),
        largeLoadGap,
      });
      message.success(envelope.message);
      setWarnings(envelope.data.warnings);
      await queryClient.invalidateQueries({ queryKey: meterKeys.all });
    } catch (error) {
      const field = error instanceof ApiError ? (error.data as { field?: string } | null)?.field : undefined;
      setRefusal(error instanceof ApiError ? underField(error.message, field) : String(error));
    } finally {
      setSaving(false);
    }
  };

  const warningText = (w: Tou['warnings'][number]) =>
    t(`touWarnings.${w.key}`, {
      defaultValue: w.key,
      ratio: w.ratio,
      min: w.min,
      period: w.period ? t(`tou.${w.period}`) : '',
      cheaper: w.cheaper ? t(`tou.${w.cheaper}`) : '',
    });

  return (
    <Card title={t('touSettings.title', '分时电价')} data-testid="tou-settings">
      <Typography.Paragraph type="secondary">
        {t(
          'touSettings.hint',
          '按公司时区设置尖、峰、平、谷的时段（可跨零点，如 23 至 7；7.5 表示 07:30），四个时段须正好覆盖全天；电价单位为元/kWh。',
        )}
      </Typography.Paragraph>
      {tou.isError ? (
        <LoadFailed onRetry={() => tou.refetch()} />
      ) : !tou.data ? (
        <Skeleton active />
      ) : (
        <>
          <div className="tou-grid">
            {TOU_PERIODS.map((period) => (
              <div className="tou-period" key={period} data-testid={`tou-${period}`}>
                <div className="tou-period-head">
                  <span className="tou-dot" style={{ background: TOU_COLORS[period] }} />
                  <Typography.Text strong>{t(`tou.${period}`)}</Typography.Text>
                </div>
                {ranges[period].length === 0 ? (
                  <Typography.Text type="secondary">{t('touSettings.noHours', '无时段')}</Typography.Text>
                ) : null}
                {ranges[period].map((r, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: ranges have no identity but their place
                  <Space key={i} wrap size={4} className="tou-range">
                    <InputNumber
                      min={0}
                      max={24}
                      step={1}
                      value={r.from}
                      disabled={!canEdit}
                      onChange={(v) => setRange(period, i, 'from', v)}
                      className="tou-hour"
                      aria-label={t('touSettings.from', '开始')}
                      data-testid={`tou-${period}-${i}-from`}
                    />
                    <span>—</span>
                    <InputNumber
                      min={0}
                      max={24}
                      step={1}
                      value={r.to}
                      disabled={!canEdit}
                      onChange={(v) => setRange(period, i, 'to', v)}
                      className="tou-hour"
                      aria-label={t('touSettings.to', '结束')}
                      data-testid={`tou-${period}-${i}-to`}
                    />
                    <Typography.Text type="secondary" className="tou-range-text">
                      {hourText(r.from)}–{hourText(r.to)}
                    </Typography.Text>
                    {canEdit ? (
                      <Button
                        type="text"
                        size="small"
                        icon={<DeleteOutlined />}
                        aria-label={t('common.delete', '删除')}
                        onClick={() =>
                          setRanges((x) => ({ ...x, [period]: x[period].filter((_, n) => n !== i) }))
                        }
                      />
                    ) : null}
                  </Space>
                ))}
                {canEdit ? (
                  <Button
                    size="small"
                    type="dashed"
                    icon={<PlusOutlined />}
                    onClick={() => setRanges((x) => ({ ...x, [period]: [...x[period], { from: 0, to: 1 }] }))}
                    data-testid={`tou-${period}-add`}
                  >
                    {t('touSettings.addRange', '添加时段')}
                  </Button>
                ) : null}
                <div className="tou-price">
                  <Typography.Text type="secondary">{t('touSettings.price', '电价')}</Typography.Text>
                  <InputNumber
                    min={0}
                    max={1000}
                    step={0.01}
                    precision={2}
                    value={prices[period] == null ? null : (prices[period] as number) / 100}
                    disabled={!canEdit}
                    onChange={(v) =>
                      setPrices((p) => ({ ...p, [period]: v == null ? null : Math.round(Number(v) * 100) }))
                    }
                    addonAfter={t('touSettings.unit', '元/kWh')}
                    className="tou-price-input"
                    data-testid={`tou-${period}-price`}
                  />
                </div>
              </div>
            ))}
          </div>
          <Checkbox
            checked={largeLoadGap}
            disabled={!canEdit}
            onChange={(e) => setLargeLoadGap(e.target.checked)}
            className="tou-large"
          >
            {t('touSettings.largeLoadGap', '大工业用户（峰谷价差不低于 4 倍）')}
          </Checkbox>
          {refusal ? (
            <Alert type="error" showIcon className="meter-alert" title={refusal} data-testid="tou-refusal" />
          ) : null}
          {warnings.length > 0 ? (
            <Alert
              type="warning"
              showIcon
              className="meter-alert"
              data-testid="tou-warnings"
              title={t('touSettings.warnings', '电价提示（已保存，请核对）')}
              description={
                <ul className="meter-issues">
                  {warnings.map((w) => (
                    <li key={`${w.key}-${w.period ?? ''}`}>{warningText(w)}</li>
                  ))}
                </ul>
              }
            />
          ) : null}
          {canEdit ? (
            <Button type="primary" onClick={save} loading={saving} data-testid="tou-save">
              {t('common.save', '保存')}
            </Button>
          ) : (
            <Typography.Text type="secondary" data-testid="tou-readonly">
              {t('touSettings.readOnly', '只有拥有公司管理权限的人可以修改。')}
            </Typography.Text>
          )}
        </>
      )}
    </Card>
  );
}
