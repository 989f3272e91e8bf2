import { DownloadOutlined, FilePdfOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { App, Button, DatePicker, Descriptions, Empty, Skeleton, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { downloadFile } from '../../../app/http/download';
import { LoadFailed } from '../../../shared/LoadFailed';
import { PageHeader } from '../../../shared/PageHeader';
import { formatMinute } from '../../../shared/time';
import { type Report, useReport, VIRTUAL } from '../api';
import { IssueList } from '../components/IssueList';
import { useEventText } from '../components/MeterLogTable';
import { kWh, num, pricePerKWh, yuan } from '../format';
import { CABIN_PATH, meterPaths } from '../paths';
import '../meters.css';

/**
 * /standardReport|virtualReport/:year/:month/:electricMeterId/:electricMeterName: one meter's
 * month: the readings at the month's boundaries, the ratios, the energy and its cost per
 * time-of-use period, the log of the month and, for a parent meter, the balance against its
 * children. Another month is a new address; the XLSX and the PDF (numbered A4 pages, the same
 * numbers, in the reader's language) both come from the server.
 */
export default function MeterReportPage() {
  const { t } = useTranslation('meters');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const params = useParams();
  const id = Number(params.electricMeterId) || 0;
  const year = Number(params.year) || dayjs().year();
  const month = Number(params.month) || dayjs().month() + 1;
  const name = params.electricMeterName ?? '';
  const report = useReport(id, year, month);
  const [downloading, setDownloading] = useState<'xlsx' | 'pdf' | null>(null);
  const current = dayjs(new Date(year, month - 1, 1));
  const isVirtual = report.data?.meter.type === VIRTUAL;

  const go = (d: dayjs.Dayjs) =>
    navigate(meterPaths.report({ id, name, type: report.data?.meter.type }, d.year(), d.month() + 1));

  const download = async (kind: 'xlsx' | 'pdf') => {
    setDownloading(kind);
    try {
      await downloadFile(
        kind === 'xlsx' ? '/meter/report/export' : '/meter/report/pdf',
        { meterId: id, year, month },
        `${name}-${year}-${String(month).padStart(2, '0')}.${kind}`,
      );
      message.success(t('report.downloaded', '已下载'));
    } catch {
      // the download showed the error
    } finally {
      setDownloading(null);
    }
  };

  return (
    <div className="meter-page-bg">
      <div className="meter-page" data-testid="meter-report-page">
        <PageHeader
          className="meter-no-print"
          title={t('report.title', '{{name}} {{year}} 年 {{month}} 月电量报表', { name, year, month })}
          hint={t('report.hint', '月初、月末读数，电量与分时电费；总表与子电表的平衡。')}
          extra={
            <>
              <Button
                icon={<DownloadOutlined />}
                onClick={() => download('xlsx')}
                loading={downloading === 'xlsx'}
                disabled={!report.data}
                data-testid="meter-report-xlsx"
              >
                {t('report.xlsx', '下载 Excel')}
              </Button>
              <Button
                icon={<FilePdfOutlined />}
                onClick={() => download('pdf')}
                loading={downloading === 'pdf'}
                disabled={!report.data}
                data-testid="meter-report-pdf"
              >
                {t('report.pdf', '下载 PDF')}
              </Button>
            </>
          }
        />
        <div className="meter-toolbar meter-no-print">
          <Button
            icon={<LeftOutlined />}
            onClick={() => go(current.subtract(1, 'month'))}
            data-testid="meter-report-prev"
          >
            {t('report.prev', '上月')}
          </Button>
          <DatePicker
            picker="month"
            allowClear={false}
            value={current}
            onChange={(d) => d && go(d)}
            data-testid="meter-report-month"
          />
          <Button onClick={() => go(current.add(1, 'month'))} data-testid="meter-report-next">
            {t('report.next', '下月')}
            <RightOutlined />
          </Button>
          <Link to={CABIN_PATH}>{t('meter.cabin', '数据舱')}</Link>
          {report.data ? (
            <Link to={meterPaths.view({ id, name, type: report.data.meter.type })}>
              {isVirtual ? t('report.toVirtual', '查看虚拟电表') : t('report.toMeter', '查看电表')}
            </Link>
          ) : null}
        </div>
        {report.isError ? (
          <LoadFailed onRetry={() => report.refetch()} />
        ) : !report.data ? (
          <Skeleton active />
        ) : (
          <ReportPaper report={report.data} />
        )}
      </div>
    </div>
  );
}

function ReportPaper({ report: r }: { report: Report }) {
  const { t } = useTranslation('meters');
  const eventText = useEventText();
  const isVirtual = r.meter.type === VIRTUAL;
  const reading = (x: Report['opening']) =>
    x ? `${num(x.value, 3)} (${formatMinute(x.at)})` : t('report.noReading', '无读数');

  return (
    <div className="meter-print-area meter-paper" data-testid="meter-report">
      <Typography.Title level={4} className="meter-paper-title">
        {t('report.paperTitle', '{{name}} 电量月报 {{year}}-{{month}}', {
          name: r.meter.name,
          year: r.year,
          month: String(r.month).padStart(2, '0'),
        })}
      </Typography.Title>
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, sm: 2 }}
        className="meter-section"
        items={[
          { key: 'code', label: t('fields.code', '编码'), children: r.meter.code },
          {
            key: 'range',
            label: t('report.range', '统计区间'),
            children: `${formatMinute(r.from)} — ${formatMinute(r.to)}`,
          },
          ...(isVirtual
            ? [{ key: 'formula', label: t('fields.formula', '公式'), children: r.meter.formula ?? '—' }]
            : [
                { key: 'opening', label: t('report.opening', '月初读数'), children: reading(r.opening) },
                { key: 'closing', label: t('report.closing', '月末读数'), children: reading(r.closing) },
                { key: 'ct', label: t('report.ct', 'CT 变比'), children: num(r.meter.ct, 4) },
                { key: 'pt', label: t('report.pt', 'PT 变比'), children: num(r.meter.pt, 4) },
                { key: 'mult', label: t('fields.multiplier', '倍率'), children: num(r.meter.multiplier, 4) },
              ]),
          {
            key: 'kWh',
            label: t('report.energy', '本月电量'),
            children: <strong data-testid="meter-report-kwh">{kWh(r.kWh, 3)}</strong>,
          },
          {
            key: 'cost',
            label: t('report.cost', '本月电费'),
            children: <strong data-testid="meter-report-cost">{yuan(r.totalCents)}</strong>,
          },
        ]}
      />

      <Typography.Title level={5}>{t('report.touTitle', '分时电量与电费')}</Typography.Title>
      {r.tou ? (
        <Table
          className="meter-section"
          size="small"
          rowKey="period"
          pagination={false}
          scroll={{ x: 'max-content' }}
          dataSource={r.tou}
          data-testid="meter-report-tou"
          columns={[
            { title: t('report.period', '时段'), dataIndex: 'period', render: (p: string) => t(`tou.${p}`) },
            {
              title: t('energy.kWh', '电量'),
              dataIndex: 'kWh',
              align: 'right',
              render: (v: number) => kWh(v, 3),
            },
            {
              title: t('report.price', '电价'),
              dataIndex: 'price',
              align: 'right',
              render: (v: number | null) => pricePerKWh(v),
            },
            {
              title: t('energy.cost', '电费'),
              dataIndex: 'cents',
              align: 'right',
              render: (v: number | null) => yuan(v),
            },
          ]}
          summary={() => (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0}>{t('report.sum', '合计')}</Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                {kWh(r.kWh, 3)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} />
              <Table.Summary.Cell index={3} align="right">
                {yuan(r.totalCents)}
              </Table.Summary.Cell>
            </Table.Summary.Row>
          )}
        />
      ) : (
        <Typography.Paragraph type="secondary">
          {t('energy.noTou', '公司还没有设置分时电价时段，电量未按尖峰平谷拆分。')}
        </Typography.Paragraph>
      )}

      {r.balance ? (
        <>
          <Typography.Title level={5}>{t('report.balance', '总表与子电表平衡')}</Typography.Title>
          <Table
            className="meter-section"
            size="small"
            rowKey="id"
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={r.balance.children}
            data-testid="meter-report-balance"
            columns={[
              {
                title: t('fields.meter', '电表'),
                key: 'name',
                render: (_: unknown, c: { name: string; code: string }) => `${c.name} (${c.code})`,
              },
              {
                title: t('energy.kWh', '电量'),
                dataIndex: 'kWh',
                align: 'right',
                render: (v: number | null) => kWh(v, 3),
              },
            ]}
            summary={() => (
              <>
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0}>{t('report.childrenSum', '子电表合计')}</Table.Summary.Cell>
                  <Table.Summary.Cell index={1} align="right">
                    {kWh(r.balance!.childrenKWh, 3)}
                  </Table.Summary.Cell>
                </Table.Summary.Row>
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0}>
                    {t('report.difference', '差值（总表 − 子表）')}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={1} align="right">
                    <span data-testid="meter-report-difference">{kWh(r.balance!.difference, 3)}</span>
                  </Table.Summary.Cell>
                </Table.Summary.Row>
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0}>{t('report.percent', '差值占比')}</Table.Summary.Cell>
                  <Table.Summary.Cell index={1} align="right">
                    <span data-testid="meter-report-percent">
                      {r.balance!.percent == null ? '—' : `${num(r.balance!.percent)} %`}
                    </span>
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              </>
            )}
          />
        </>
      ) : null}

      {r.events.length > 0 ? (
        <>
          <Typography.Title level={5}>{t('log.title', '电表日志')}</Typography.Title>
          <ul className="meter-section">
            {r.events.map((e) => (
              <li key={`${e.kind}-${e.at}`}>
                {formatMinute(e.at)} {t(`log.${e.kind}`, e.kind)}：{eventText(e.kind, e.details)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <IssueList issues={r.issues} />
      {r.kWh == null && r.issues.length === 0 ? (
        <Empty description={t('energy.empty', '这段时间没有读数')} />
      ) : null}
    </div>
  );
}
