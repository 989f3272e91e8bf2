/**
 * A PV inverter's dashboard (/inverterDashboard/:inverterId/:inverterName): its power, daily and
 * total yield, efficiency, status, temperature and string voltage from the device's points (the
 * PV inverter family's roles: as mapped on its flow chart, else matched by name), polled every
 * few seconds, and today's AC power curve. A value older than the family's staleSeconds is
 * grey with its age; a role the device has no point for says so, never a zero.
 */
import { NodeIndexOutlined } from '@ant-design/icons';
import { INVERTER_STATUSES } from '@platform/domain';
import { Alert, Button, Card, Result, Skeleton, Space, Tag, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../../../app/http/client';
import { currentLang } from '../../../app/i18n';
import { PageHeader } from '../../../shared/PageHeader';
import { formatTime } from '../../../shared/time';
import { ageText, useServerNow } from '../../screens/live';
import { type RoleReading, useInverter } from '../api';
import { flowChartPaths } from '../paths';
import '../flowcharts.css';

const EChart = lazy(() => import('../../charts/components/EChart'));

const STATUS_COLORS = ['default', 'green', 'red', 'orange'] as const;

/** minutes from midnight as a clock reads them: 455 → 07:35 */
function clock(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

function fmt(value: number, decimals: number, lang: string): string {
  return value.toLocaleString(lang === 'en' ? 'en-US' : 'zh-CN', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
}

export default function InverterDashboardPage() {
  const { t } = useTranslation('flowcharts');
  const navigate = useNavigate();
  const lang = currentLang();
  const params = useParams();
  const deviceId = Number(params.inverterId);
  const inverter = useInverter(deviceId);
  const view = inverter.data;
  const now = useServerNow(view?.at, inverter.dataUpdatedAt);
  const units = {
    s: t('age.s', '秒'),
    min: t('age.min', '分钟'),
    h: t('age.h', '小时'),
    d: t('age.d', '天'),
  };

  const option = useMemo(
    () => ({
      // redrawn every poll: no animation each time
      animation: false,
      grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
      // the company's day in minutes from its midnight, labelled as its clock reads (never the
      // browser's time zone)
      xAxis: {
        type: 'value',
        min: 0,
        max: 1440,
        interval: 120,
        axisLabel: { formatter: (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:00` },
      },
      tooltip: {
        trigger: 'axis',
        axisPointer: { label: { formatter: ({ value }: { value: number }) => clock(value) } },
      },
      yAxis: { type: 'value', name: 'kW', min: 0 },
      series: [
        {
          name: t('inverter.acPower', '交流功率'),
          type: 'line',
          // a curve of a few points shows them
          showSymbol: (view?.today.length ?? 0) < 4,
          smooth: true,
          areaStyle: { opacity: 0.25 },
          color: '#fa8c16',
          data: (view?.today ?? []).map((p) => [
            (Date.parse(p.ts) - Date.parse(view!.since)) / 60_000,
            Math.round(p.value * 100) / 100,
          ]),
        },
      ],
    }),
    [view, t],
  );

  if (inverter.isLoading) return <Skeleton active className="inv-page" />;
  if (!view) {
    const refusal = inverter.error instanceof ApiError ? inverter.error : null;
    return (
      <Result
        status={refusal?.code === 40400 ? 'info' : 'warning'}
        title={refusal?.message ?? t('inverter.failed', '无法读取逆变器数据')}
        data-testid="inverter-refused"
        extra={
          <Space>
            <Button onClick={() => inverter.refetch()}>{t('common.retry', '重试')}</Button>
            {refusal?.code === 40400 && Number.isInteger(deviceId) ? (
              <Button
                type="primary"
                onClick={() =>
                  navigate(flowChartPaths.chart({ id: deviceId, name: params.inverterName ?? '' }))
                }
              >
                {t('inverter.toChart', '打开流程图')}
              </Button>
            ) : null}
          </Space>
        }
      />
    );
  }

  const role = (key: string): RoleReading | undefined => view.roles.find((r) => r.key === key);
  const fresh = (r: RoleReading | undefined) =>
    r?.value != null && r.ts !== null && now - Date.parse(r.ts) <= view.staleSeconds * 1000;
  const status = role('status');
  const statusName =
    fresh(status) && status!.value !== null ? (INVERTER_STATUSES[status!.value] ?? null) : null;

  const figure = (key: string, decimals: number, big = false) => {
    const r = role(key);
    const live = fresh(r);
    const age = r?.ts ? ageText(Math.max(0, Math.round((now - Date.parse(r.ts)) / 1000)), units) : null;
    const hint = !r?.point
      ? t('inverter.noPoint', '设备没有对应的数据点')
      : r.value === null
        ? t('inverter.noData', '无数据')
        : live
          ? t('inverter.live', '实时 · {{age}}前 · {{point}}', {
              age,
              point: `${r.point.itemName} · ${r.point.fieldName}`,
            })
          : t('inverter.stale', '数据过期：最后一次在 {{age}}前（{{at}}）', { age, at: formatTime(r.ts!) });
    return (
      <Card
        size="small"
        className={`inv-figure${big ? ' inv-figure-big' : ''}${live ? '' : ' inv-stale'}`}
        data-testid={`inverter-${key}`}
        data-quality={!r?.point ? 'none' : live ? 'live' : r.value === null ? 'none' : 'stale'}
      >
        <Typography.Text type="secondary">{r?.name[lang] ?? key}</Typography.Text>
        <Tooltip title={hint}>
          <div className="inv-value">
            <span data-testid={`inverter-${key}-value`}>
              {r?.value != null ? fmt(r.value, decimals, lang) : '—'}
            </span>
            {r?.unit ? <span className="inv-unit">{r.unit}</span> : null}
          </div>
        </Tooltip>
        <Typography.Text type="secondary" className="inv-hint">
          {hint}
        </Typography.Text>
      </Card>
    );
  };

  return (
    <div className="inv-page" data-testid="inverter-page">
      <PageHeader
        title={
          <Space wrap size={8}>
            <span>{t('inverter.title', '逆变器看板')}</span>
            <Typography.Text type="secondary">{view.device.name}</Typography.Text>
            <Tag color={view.device.online ? 'green' : 'default'}>
              {view.device.online ? t('chart.online', '在线') : t('chart.offline', '离线')}
            </Tag>
            <Tag
              color={statusName ? STATUS_COLORS[INVERTER_STATUSES.indexOf(statusName)] : 'default'}
              data-testid="inverter-status"
            >
              {statusName ? t(`inverter.status.${statusName}`) : t('inverter.status.unknown', '状态未知')}
            </Tag>
          </Space>
        }
        extra={
          <Button icon={<NodeIndexOutlined />} onClick={() => navigate(flowChartPaths.chart(view.device))}>
            {t('inverter.chart', '流程图')}
          </Button>
        }
      />
      {!view.mapped ? (
        <Alert
          type="info"
          showIcon
          className="inv-banner"
          data-testid="inverter-matched"
          title={t(
            'inverter.matched',
            '数据点按名称自动对应。如有不对，请在流程图中为此设备选择“光伏逆变器”设备族并确认对应关系。',
          )}
        />
      ) : null}
      {!view.device.online ? (
        <Alert
          type="warning"
          showIcon
          className="inv-banner"
          title={t('inverter.offline', '设备离线：显示的是最后收到的数据，过期的数值以灰色显示。')}
        />
      ) : null}
      <div className="inv-grid">
        {figure('acPower', 2, true)}
        {figure('dailyYield', 1, true)}
        {figure('totalYield', 1, true)}
        <Card
          size="small"
          className={`inv-figure inv-figure-big${view.efficiency === null ? ' inv-stale' : ''}`}
          data-testid="inverter-efficiency"
        >
          <Typography.Text type="secondary">{t('inverter.efficiency', '转换效率')}</Typography.Text>
          <div className="inv-value">
            <span data-testid="inverter-efficiency-value">
              {view.efficiency !== null ? fmt(view.efficiency, 2, lang) : '—'}
            </span>
            <span className="inv-unit">%</span>
          </div>
          <Typography.Text type="secondary" className="inv-hint">
            {t('inverter.efficiencyHint', '交流功率 ÷ 直流功率（两者均为实时值且直流功率大于 0 时）')}
          </Typography.Text>
        </Card>
        {figure('dcPower', 2)}
        {figure('dcVoltage', 1)}
        {figure('temperature', 1)}
      </div>
      <Card
        size="small"
        title={t('inverter.today', '今日交流功率（{{minutes}} 分钟均值）', { minutes: view.seriesMinutes })}
        className="inv-chart-card"
      >
        {view.today.length === 0 ? (
          <Typography.Text type="secondary" data-testid="inverter-today-empty">
            {t('inverter.todayEmpty', '今天还没有功率数据')}
          </Typography.Text>
        ) : (
          <Suspense fallback={<Skeleton active />}>
            <div className="inv-chart">
              <EChart
                option={option}
                height="100%"
                testId="inverter-today"
                label={t('inverter.today', { minutes: view.seriesMinutes })}
              />
            </div>
          </Suspense>
        )}
      </Card>
    </div>
  );
}
