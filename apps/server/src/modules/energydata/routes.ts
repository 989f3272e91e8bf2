import {
  DEFAULT_COAL_FACTORS,
  ENERGY_DATA_KIND_INFO,
  ENERGY_DATA_KINDS,
  ENERGY_FILL_MODES,
  ENERGY_PERIOD_TYPES,
  ENERGY_RECORD_SOURCES,
  ENERGY_SITE_TYPES,
  type EnergyDataKind,
  isCalendarDate,
  type Lang,
} from '@platform/domain';
import { Type } from 'typebox';
import { callerActor, callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { AppError, fieldError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Literals, Page, Paging, paging } from '../../platform/schemas';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, sendSheet } from '../records/file-routes';
import { readForm } from '../records/multipart';
import {
  csvStream,
  type OutCell,
  readSheet,
  SheetFormatError,
  SheetTooLargeError,
  xlsxStream,
} from '../records/spreadsheet';
import { ZIP_MAX_UNPACKED_BYTES } from '../records/zip-guard';
import { FILL_SKIP_REASONS, fillFromItem, fillItems } from './fill';
import {
  allRecords,
  companyFactors,
  deleteRecord,
  deleteSite,
  IMPORT_HEADER,
  importRecords,
  listRecords,
  listSites,
  RECORD_SORTS,
  saveFactors,
  saveRecord,
  saveSite,
  summary,
} from './service';

const Day = Type.String({ maxLength: 10, description: 'YYYY-MM-DD' });
const Factor = Type.Number({ description: 'tce per unit' });
const Factors = Type.Object({
  rawCoal: Factor,
  naturalGas: Factor,
  electricity: Factor,
  heat: Factor,
  steam: Factor,
});
const FactorsView = Type.Object({
  factors: Factors,
  own: Type.Partial(Factors),
  defaults: Factors,
});
const SiteRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: Literals(ENERGY_SITE_TYPES),
  remark: Type.String(),
  records: Type.Integer(),
});
const RecordRow = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  siteName: Type.String(),
  periodType: Literals(ENERGY_PERIOD_TYPES),
  periodOn: Type.String({ description: 'the day, or the first day of the month' }),
  quantity: Type.Number(),
  tce: Type.Number({ description: 'standard coal equivalent with the company factors' }),
  source: Literals(ENERGY_RECORD_SOURCES),
  remark: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
const Figure = {
  quantity: Type.Number(),
  tce: Type.Number(),
  count: Type.Integer(),
};
const Change = Type.Object({ absolute: Type.Number(), percent: Type.Union([Type.Number(), Type.Null()]) });
const Summary = Type.Object({
  unit: Type.String(),
  factor: Type.Number(),
  total: Type.Object(Figure),
  previous: Type.Object({ from: Type.String(), to: Type.String(), ...Figure, change: Change }),
  lastYear: Type.Object({ from: Type.String(), to: Type.String(), ...Figure, change: Change }),
  byMonth: Type.Array(Type.Object({ month: Type.String(), quantity: Type.Number(), tce: Type.Number() })),
  bySite: Type.Array(
    Type.Object({
      siteId: Type.Integer(),
      siteName: Type.String(),
      quantity: Type.Number(),
      tce: Type.Number(),
    }),
  ),
});
const Filter = {
  from: Type.Optional(Day),
  to: Type.Optional(Day),
  siteId: Type.Optional(Id),
};
const RecordBody = Type.Object({
  id: Type.Optional(Id),
  siteId: Id,
  periodType: Literals(ENERGY_PERIOD_TYPES),
  periodOn: Type.String({ maxLength: 10, description: 'YYYY-MM-DD, or YYYY-MM for a month' }),
  quantity: Type.Number({ description: "in the kind's unit" }),
  remark: Type.Optional(Type.String({ maxLength: 200 })),
});
const FileResponse = Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'the file' });

const ANY_EDP = ENERGY_DATA_KINDS.map((k) => ENERGY_DATA_KIND_INFO[k].code);

function checkRange(q: { from?: string; to?: string }) {
  if (q.from !== undefined && !isCalendarDate(q.from)) throw fieldError('from');
  if (q.to !== undefined && !isCalendarDate(q.to)) throw fieldError('to');
  if (q.from && q.to && q.to < q.from) throw fieldError('to');
}

const EXPORT_WORDS: Record<Lang, { head: string[]; total: string; period: Record<string, string> }> = {
  zh: {
    head: ['站点', '周期', '期间', '数量', '单位', '标准煤 (tce)', '来源', '备注'],
    total: '合计',
    period: { day: '日', month: '月', entry: '手工录入', import: '文件导入', item: '数据项' },
  },
  en: {
    head: ['Site', 'Period type', 'Period', 'Quantity', 'Unit', 'Coal equivalent (tce)', 'Source', 'Remark'],
    total: 'Total',
    period: { day: 'day', month: 'month', entry: 'entry', import: 'import', item: 'data item' },
  },
};

/** The record routes of one page's kind, under /general/energy/{page}, with the page's code. */
async function kindRoutes(app: App, kind: EnergyDataKind): Promise<void> {
  const info = ENERGY_DATA_KIND_INFO[kind];
  const base = `/energy/${info.path}`;
  const tags = ['energy'];
  const config = { permission: info.code };
  const what = info.label.en.toLowerCase();

  app.get(
    `${base}/record/list`,
    {
      config,
      schema: {
        tags,
        summary: `Records of ${what} (${info.unit}), latest period first, by site and range, each in tce`,
        querystring: Type.Object({
          ...Paging,
          ...Filter,
          sort: Type.Optional(Literals(RECORD_SORTS)),
          order: Type.Optional(Literals(['asc', 'desc'] as const)),
        }),
        response: { 200: Envelope(Page(RecordRow)) },
      },
    },
    async (request) => {
      checkRange(request.query);
      const page = paging(request.query);
      return ok({
        ...(await listRecords(app.db, callerCompany(request), kind, { ...request.query, ...page })),
        ...page,
      });
    },
  );

  app.get(
    `${base}/summary`,
    {
      config,
      schema: {
        tags,
        summary: `Totals of ${what} in the range in ${info.unit} and tce, against the period before and a year before, by month and site`,
        querystring: Type.Object({ from: Day, to: Day, siteId: Type.Optional(Id) }),
        response: { 200: Envelope(Summary) },
      },
    },
    async (request) => {
      checkRange(request.query);
      return ok(await summary(app.db, callerCompany(request), kind, request.query));
    },
  );

  app.post(
    `${base}/record/save`,
    {
      config,
      schema: {
        tags,
        summary: `Record ${what} of a site for a day or a month by hand, or change a record`,
        body: RecordBody,
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })) },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) => saveRecord(tx, callerActor(request), kind, request.body)),
        'operation',
        request.lang,
      ),
  );

  app.post(
    `${base}/record/delete`,
    {
      config,
      schema: {
        tags,
        summary: `Delete a record of ${what}`,
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await app.db.transaction((tx) => deleteRecord(tx, callerActor(request), kind, request.body.id));
      return ok(null, 'deleted', request.lang);
    },
  );

  app.post(
    `${base}/record/fill`,
    {
      config,
      schema: {
        tags,
        summary: `Day records of ${what} from a data item's number field: a cumulative counter (end reading minus start reading, a reset starting anew) or a sum of per-period values, times a unit factor; days recorded by hand, by import or as a month are kept and reported, days an earlier fill wrote are replaced`,
        body: Type.Object({
          siteId: Id,
          itemId: Id,
          field: Type.String({ maxLength: 16, description: "the field's key" }),
          mode: Literals(ENERGY_FILL_MODES),
          from: Day,
          to: Day,
          factor: Type.Optional(
            Type.Number({
              description: "the field's unit into the kind's unit (kg → t is 0.001); 1 by default",
            }),
          ),
        }),
        response: {
          200: Envelope(
            Type.Object({
              written: Type.Integer(),
              replaced: Type.Integer(),
              skipped: Type.Array(
                Type.Object({ periodOn: Type.String(), reason: Literals(FILL_SKIP_REASONS) }),
              ),
              empty: Type.Integer({ description: 'days without a reading of the field' }),
            }),
          ),
        },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) => fillFromItem(tx, callerActor(request), kind, request.body)),
        'operation',
        request.lang,
      ),
  );

  app.post(
    `${base}/record/import`,
    {
      config,
      schema: {
        tags,
        summary: `Import records of ${what} (multipart \`file\`: CSV or XLSX with the columns site, period type, period, quantity, remark), all or nothing`,
        consumes: ['multipart/form-data'],
        response: { 200: Envelope(Type.Object({ imported: Type.Integer() })) },
      },
    },
    async (request) => {
      const actor = callerActor(request);
      const form = await readForm(request, IMPORT_MAX_BYTES + 1);
      if (!form.file) throw fieldError('file', 'fieldRequired');
      if ('tooLarge' in form.file || form.file.bytes.length > IMPORT_MAX_BYTES)
        throw fieldError('file', 'importTooLarge');
      if (form.file.bytes.length === 0) throw fieldError('file', 'fieldRequired');
      let sheet: Awaited<ReturnType<typeof readSheet>>;
      try {
        sheet = await readSheet(form.file.bytes);
      } catch (error) {
        if (error instanceof SheetFormatError) throw fieldError('file', 'importFileFormat');
        if (error instanceof SheetTooLargeError)
          throw new AppError(
            'importUnpackedTooLarge',
            { max: ZIP_MAX_UNPACKED_BYTES / 1024 / 1024 },
            { field: 'file' },
          );
        throw error;
      }
      if (sheet.rows.length > IMPORT_MAX_ROWS + 1)
        throw new AppError('importTooManyRows', { max: IMPORT_MAX_ROWS }, { field: 'file' });
      return ok(
        await app.db.transaction((tx) => importRecords(tx, actor, kind, sheet.rows)),
        'operation',
        request.lang,
      );
    },
  );

  app.get(
    `${base}/record/template`,
    {
      config,
      schema: {
        tags,
        summary: 'The import file with its header and one example line',
        querystring: Type.Object({ format: Literals(['csv', 'xlsx'] as const) }),
        response: { 200: FileResponse },
      },
    },
    async (request, reply) => {
      const lang = request.lang;
      const head = IMPORT_HEADER[lang];
      const example: OutCell[] = [
        lang === 'zh' ? '一号锅炉房' : 'Boiler house 1',
        lang === 'zh' ? '月' : 'month',
        '2025-01',
        { number: 120.5, decimals: 1 },
        '',
      ];
      const batches = (async function* () {
        yield [example];
      })();
      const name = `${lang === 'zh' ? '能源数据导入模板' : 'energy-import-template'}.${request.query.format}`;
      const body =
        request.query.format === 'csv' ? csvStream(head, batches) : xlsxStream('import', head, batches);
      return sendSheet(reply, request.query.format, name, body);
    },
  );

  app.get(
    `${base}/record/export`,
    {
      config,
      schema: {
        tags,
        summary: `The records of ${what} of the filter with their tce and the totals, as a CSV or XLSX file`,
        querystring: Type.Object({
          ...Filter,
          format: Literals(['csv', 'xlsx'] as const),
          lang: Type.Optional(Literals(['zh', 'en'] as const)),
        }),
        response: { 200: FileResponse },
      },
    },
    async (request, reply) => {
      const q = request.query;
      checkRange(q);
      const lang = q.lang ?? request.lang;
      const words = EXPORT_WORDS[lang];
      const records = await allRecords(app.db, callerCompany(request), kind, q);
      let quantity = 0;
      let tce = 0;
      const rows: OutCell[][] = records.map((r) => {
        quantity += r.quantity;
        tce += r.tce;
        return [
          r.siteName,
          words.period[r.periodType] ?? r.periodType,
          r.periodType === 'month' ? r.periodOn.slice(0, 7) : r.periodOn,
          { number: r.quantity, decimals: 3 },
          info.unit,
          { number: r.tce, decimals: 3 },
          words.period[r.source] ?? r.source,
          r.remark,
        ];
      });
      rows.push([
        words.total,
        '',
        '',
        { number: Math.round(quantity * 1000) / 1000, decimals: 3 },
        info.unit,
        { number: Math.round(tce * 1000) / 1000, decimals: 3 },
        '',
        '',
      ]);
      const batches = (async function* () {
        yield rows;
      })();
      const sheet = `${info.label[lang]}`;
      const name = `${lang === 'zh' ? info.label.zh : info.path}-${q.from ?? 'all'}-${q.to ?? 'all'}.${q.format}`;
      const body =
        q.format === 'csv' ? csvStream(words.head, batches) : xlsxStream(sheet, words.head, batches);
      return sendSheet(reply, q.format, name, body);
    },
  );
}

/**
 * The energy data platform (/energy, docs/energy-data.md) under /general/energy: the records of
 * each page's kind under its own path and menu code (edp_coal, edp_gas, edp_steam_consume,
 * edp_steam_output), and the sites and coal factors the four pages share (any of the codes).
 */
export default async function energyDataRoutes(app: App): Promise<void> {
  for (const kind of ENERGY_DATA_KINDS) await kindRoutes(app, kind);

  const config = { permission: ANY_EDP };
  const tags = ['energy'];

  app.get(
    '/energy/site/list',
    {
      config,
      schema: {
        tags,
        summary: "The company's sites (plants, boiler houses, workshops) by name, with their record counts",
        response: { 200: Envelope(Type.Array(SiteRow)) },
      },
    },
    async (request) => ok(await listSites(app.db, callerCompany(request))),
  );

  app.post(
    '/energy/site/save',
    {
      config,
      schema: {
        tags,
        summary: 'Add a site, or change one',
        body: Type.Object({
          id: Type.Optional(Id),
          name: Type.String({ maxLength: 50 }),
          type: Literals(ENERGY_SITE_TYPES),
          remark: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })) },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) => saveSite(tx, callerActor(request), request.body)),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/energy/site/delete',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a site that holds no records',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await app.db.transaction((tx) => deleteSite(tx, callerActor(request), request.body.id));
      return ok(null, 'deleted', request.lang);
    },
  );

  app.get(
    '/energy/item/list',
    {
      config,
      schema: {
        tags,
        summary:
          "The company's data items the caller may read that have number fields, with those fields (what a fill takes)",
        response: {
          200: Envelope(
            Type.Array(
              Type.Object({
                id: Type.Integer(),
                name: Type.String(),
                fields: Type.Array(
                  Type.Object({ key: Type.String(), name: Type.String(), unit: Type.String() }),
                ),
              }),
            ),
          ),
        },
      },
    },
    async (request) => ok(await fillItems(app.db, callerActor(request))),
  );

  app.get(
    '/energy/factors',
    {
      config,
      schema: {
        tags,
        summary: "The company's standard coal factors (tce per unit), its own and the defaults",
        response: { 200: Envelope(FactorsView) },
      },
    },
    async (request) => {
      const { factors, own } = await companyFactors(app.db, callerCompany(request));
      return ok({ factors, own, defaults: DEFAULT_COAL_FACTORS });
    },
  );

  app.post(
    '/energy/factors/save',
    {
      config,
      schema: {
        tags,
        summary: "Set the company's own coal factors; a kind left out or null takes the default",
        body: Type.Partial(
          Type.Object({
            rawCoal: Type.Union([Factor, Type.Null()]),
            naturalGas: Type.Union([Factor, Type.Null()]),
            electricity: Type.Union([Factor, Type.Null()]),
            heat: Type.Union([Factor, Type.Null()]),
            steam: Type.Union([Factor, Type.Null()]),
          }),
        ),
        response: { 200: Envelope(FactorsView) },
      },
    },
    async (request) => {
      const saved = await app.db.transaction((tx) => saveFactors(tx, callerActor(request), request.body));
      return ok({ ...saved, defaults: DEFAULT_COAL_FACTORS }, 'operation', request.lang);
    },
  );
}
