import { DownloadOutlined } from '@ant-design/icons';
import { Button, Card, Col, DatePicker, Grid, Row, Space, Spin, Statistic, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../shared/LoadFailed';
import { PageHeader } from '../../../shared/PageHeader';
import { type OutputRow, productionApi, useOutputReport } from '../api';
import { emptyLocale } from '../components/EmptyText';
import { companyToday, daysBetween, langOf, lastDays } from '../model';
import '../production.css';

// ECharts is large: only this page loads it, and only once the page is open
const OutputChart = lazy(() => import('../components/OutputChart'));

const DAY = 'YYYY-MM-DD';

interface Total {
  name: string;
  count: number;
}

/** A count per name, the largest first. */
const totalsOf = (counts: Record<string, number>): Total[] =>
  Object.entries(counts)
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));

/**
 * /productionManagement/reports (pm_reports): the output of a period (the last 30 days at first),
 * the company's days: units finished per day as a chart, by line, by product and by all three,
 * exported as CSV or XLSX.
 */
export default function ReportsPage() {
  const { t, i18n } = useTranslation('production');
  const lang = langOf(i18n.language);
  const wide = Grid.useBreakpoint().md === true;
  const [[from, to], setRange] = useState<[string, string]>(() => lastDays(30));
  const [exporting, setExporting] = useState<'csv' | 'xlsx' | null>(null);
  const report = useOutputReport(from, to);
  const data = report.data;
  const days = useMemo(() => daysBetween(from, to), [from, to]);

  const exportAs = async (format: 'csv' | 'xlsx') => {
    setExporting(format);
    try {
      await productionApi.exportReport(from, to, format, lang);
    } catch {
      // the download showed the server's message
    } finally {
      setExporting(null);
    }
  };

  const today = companyToday();
  const presets = [
    {
      label: t('report.last7'),
      value: lastDays(7, today).map((d) => dayjs(d)) as [dayjs.Dayjs, dayjs.Dayjs],
    },
    {
      label: t('report.last30'),
      value: lastDays(30, today).map((d) => dayjs(d)) as [dayjs.Dayjs, dayjs.Dayjs],
    },
    {
      label: t('report.thisMonth'),
      value: [dayjs(today).startOf('month'), dayjs(today)] as [dayjs.Dayjs, dayjs.Dayjs],
    },
  ];

  const totalColumns = (title: string): ColumnsType<Total> => [
    { title, dataIndex: 'name', ellipsis: true },
    {
      title: t('report.units'),
      dataIndex: 'count',
      width: 100,
      align: 'right',
      render: (v: number) => <span className="production-number">{v}</span>,
    },
  ];
  const rowColumns: ColumnsType<OutputRow> = [
    {
      title: t('fields.day'),
      dataIndex: 'day',
      width: 120,
      render: (v: string) => <span className="production-number">{v}</span>,
    },
    { title: t('fields.line'), dataIndex: 'line', width: 140, ellipsis: true },
    { title: t('fields.product'), dataIndex: 'product', width: 180, ellipsis: true },
    {
      title: t('report.units'),
      dataIndex: 'count',
      width: 90,
      align: 'right',
      render: (v: number) => <span className="production-number">{v}</span>,
    },
  ];
  const empty = emptyLocale(t('report.empty'));

  return (
    <div className="production-reports" data-testid="production-reports">
      <Card variant="borderless" className="production-card">
        <PageHeader title={t('menu.productionReports')} hint={t('report.hint')} />
        <div className="production-toolbar">
          <DatePicker.RangePicker
            value={[dayjs(from), dayjs(to)]}
            allowClear={false}
            presets={presets}
            onChange={(range) => {
              if (range?.[0] && range[1]) setRange([range[0].format(DAY), range[1].format(DAY)]);
            }}
            className="production-range"
            data-testid="production-report-range"
          />
          <Space wrap>
            {(['csv', 'xlsx'] as const).map((format) => (
              <Button
                key={format}
                icon={<DownloadOutlined />}
                loading={exporting === format}
                onClick={() => exportAs(format)}
                data-testid={`production-export-${format}`}
              >
                {t('report.export', { format: format.toUpperCase() })}
              </Button>
            ))}
          </Space>
        </div>
        {report.isError ? <LoadFailed onRetry={() => void report.refetch()} /> : null}
        <div className="production-stats">
          <Statistic
            title={t('report.total', { from, to })}
            value={data?.total ?? 0}
            loading={!data && report.isFetching}
            data-testid="production-report-total"
          />
          <Statistic title={t('report.days')} value={Object.keys(data?.byDay ?? {}).length} />
          <Statistic title={t('report.lines')} value={Object.keys(data?.byLine ?? {}).length} />
        </div>
        <Suspense fallback={<Spin className="production-chart-loading" />}>
          <OutputChart days={days} byDay={data?.byDay ?? {}} name={t('report.units')} />
        </Suspense>
      </Card>
      <Row gutter={[16, 16]}>
        {(
          [
            ['line', t('report.byLine'), t('fields.line'), data?.byLine],
            ['product', t('report.byProduct'), t('fields.product'), data?.byProduct],
          ] as const
        ).map(([key, title, column, counts]) => (
          <Col xs={24} lg={12} key={key}>
            <Card variant="borderless" title={title} className="production-card">
              <Table<Total>
                rowKey="name"
                size="small"
                columns={totalColumns(column)}
                dataSource={totalsOf(counts ?? {})}
                pagination={false}
                locale={empty}
                data-testid={`production-report-${key}s`}
              />
            </Card>
          </Col>
        ))}
      </Row>
      <Card variant="borderless" title={t('report.rows')} className="production-card">
        <Table<OutputRow>
          rowKey={(r) => `${r.day}|${r.line}|${r.product}`}
          size="small"
          columns={rowColumns}
          dataSource={data?.rows ?? []}
          loading={report.isFetching}
          pagination={{ defaultPageSize: 20, showSizeChanger: true, hideOnSinglePage: true }}
          scroll={wide ? undefined : { x: 530 }}
          locale={empty}
          data-testid="production-report-rows"
        />
      </Card>
    </div>
  );
}
