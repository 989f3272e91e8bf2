/**
 * A chart's data as a spreadsheet (CSV or XLSX, the records export's writers): raw series as
 * one row per instant and one column per series (empty where a series has no point at that
 * instant, as after downsampling each series keeps its own instants); value series as one row
 * per series with the acquisition method and its value.
 */
import type { Lang } from '@platform/domain';
import type { OutCell } from '../records/spreadsheet';
import type { SeriesData } from './data';

const METHOD_LABELS: Record<Lang, Record<string, string>> = {
  zh: {
    raw: '原始数据',
    latest: '最新记录',
    totalYesterday: '昨日总计',
    totalToday: '今日总计',
    totalThisMonth: '本月总计',
    lastOfYesterday: '昨日最后一条记录',
    lastOfDayBefore: '前日最后一条记录',
    lastOfLastMonth: '上月最后一条记录',
    lastOfMonthBefore: '前月最后一条记录',
    rangeSum: '时间段求和',
    rangeAvg: '时间段平均值',
    rangeMax: '时间段最大值',
    rangeMin: '时间段最小值',
  },
  en: {
    raw: 'Raw series',
    latest: 'Latest record',
    totalYesterday: 'Total yesterday',
    totalToday: 'Total today',
    totalThisMonth: 'Total this month',
    lastOfYesterday: 'Last record of yesterday',
    lastOfDayBefore: 'Last record of the day before',
    lastOfLastMonth: 'Last record of last month',
    lastOfMonthBefore: 'Last record of the month before',
    rangeSum: 'Time-range sum',
    rangeAvg: 'Time-range average',
    rangeMax: 'Time-range maximum',
    rangeMin: 'Time-range minimum',
  },
};

const HEADERS = {
  zh: { time: '时间', series: '数据系列', method: '取值方式', value: '值', from: '开始', to: '结束' },
  en: { time: 'Time', series: 'Series', method: 'Method', value: 'Value', from: 'From', to: 'To' },
} as const;

const label = (s: SeriesData) => (s.unit ? `${s.name} (${s.unit})` : s.name);

/** Local wall time of an instant as people write it: yyyy-MM-dd HH:mm:ss in the company's zone. */
function wall(ms: number, tz: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(ms));
}

export function chartSheet(
  series: SeriesData[],
  raw: boolean,
  lang: Lang,
  tz: string,
): { header: string[]; rows: OutCell[][] } {
  const h = HEADERS[lang];
  if (!raw) {
    return {
      header: [h.series, h.method, h.value, h.from, h.to],
      rows: series.map((s) => [
        label(s),
        METHOD_LABELS[lang][s.method] ?? s.method,
        s.value === null ? '' : { number: s.value },
        s.from ? wall(Date.parse(s.from), tz) : '',
        s.to ? wall(Date.parse(s.to), tz) : '',
      ]),
    };
  }
  const byTime = new Map<number, Array<number | null>>();
  series.forEach((s, i) => {
    for (const [ts, v] of s.points) {
      let row = byTime.get(ts);
      if (!row) {
        row = series.map(() => null);
        byTime.set(ts, row);
      }
      row[i] = v;
    }
  });
  const times = [...byTime.keys()].sort((a, b) => a - b);
  return {
    header: [h.time, ...series.map(label)],
    rows: times.map((ts) => [
      wall(ts, tz),
      ...byTime.get(ts)!.map((v): OutCell => (v === null ? '' : { number: v })),
    ]),
  };
}
