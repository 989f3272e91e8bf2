/**
 * Export, import template and import of SIM cards, the same on both sides: a company's own
 * cards under /devicecommunication/sim (cd_sim), every card under /system/sim (system_sim).
 * The spreadsheet reading and writing are the records import's (CSV with formula
 * neutralisation, XLSX through exceljs behind the ZIP guard, format told by the bytes).
 */
import { Readable } from 'node:stream';
import { formatInstant } from '@platform/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { AppError, fieldError, ok } from '../../platform/envelope';
import { Envelope } from '../../platform/schemas';
import { companyTimeZone } from '../companies/service';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS } from '../records/file-routes';
import { readForm } from '../records/multipart';
import {
  attachment,
  csvStream,
  readSheet,
  SheetFormatError,
  SheetTooLargeError,
  templateXlsx,
  xlsxStream,
} from '../records/spreadsheet';
import { ZIP_MAX_UNPACKED_BYTES } from '../records/zip-guard';
import { writeImport } from './import';
import { FileResponse, Format, ImportResultSchema, ListFilters, SystemFilters } from './schemas';
import { cardBatches, type Filters, orderOf, type Scope } from './service';
import {
  checkSimRows,
  exportHeader,
  exportRow,
  isNoteRow,
  mapSimHeader,
  templateHeader,
  templateNotes,
} from './sim-io';

const NAMES = {
  zh: { cards: 'SIM卡', template: 'SIM卡导入模板' },
  en: { cards: 'SIM cards', template: 'SIM card import template' },
} as const;

function stamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
}

function sendSheet(reply: FastifyReply, format: 'csv' | 'xlsx', fileName: string, body: Readable) {
  return reply
    .header(
      'content-type',
      format === 'csv'
        ? 'text/csv; charset=utf-8'
        : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    )
    .header('content-disposition', attachment(fileName))
    .header('cache-control', 'no-store')
    .send(body);
}

export interface SideOptions {
  /** '/devicecommunication/sim' or '/system/sim' */
  base: string;
  permission: 'cd_sim' | 'system_sim';
  scope: (request: FastifyRequest) => Scope;
  /** the time zone exports write times in */
  zone: (request: FastifyRequest) => Promise<string>;
}

export async function simFileRoutes(app: App, side: SideOptions): Promise<void> {
  const system = side.permission === 'system_sim';
  const tag = system ? 'system sims' : 'sims';

  app.get(
    `${side.base}/export`,
    {
      config: { permission: side.permission },
      schema: {
        tags: [tag],
        summary:
          'Download the cards the list shows (same search and filters) as CSV (UTF-8 with BOM) or XLSX',
        querystring: Type.Object({
          format: Format,
          ...ListFilters,
          ...(system ? SystemFilters : {}),
        }),
        response: { 200: FileResponse },
      },
    },
    async (request, reply) => {
      const q = request.query as { format: 'csv' | 'xlsx' } & Filters;
      const lang = request.lang;
      const tz = await side.zone(request);
      const format = (d: Date) => formatInstant(d.getTime(), 'yyyy-MM-dd HH:mm:ss', tz);
      const scope = side.scope(request);
      const batches = (async function* () {
        for await (const batch of cardBatches(app.db, scope, q, orderOf('iccid', 'asc'))) {
          yield batch.map((r) => exportRow(r.card, r.companyName, lang, format, system));
        }
      })();
      const header = exportHeader(lang, system);
      const fileName = `${NAMES[lang].cards}-${stamp(new Date())}.${q.format}`;
      const body =
        q.format === 'csv' ? csvStream(header, batches) : xlsxStream(NAMES[lang].cards, header, batches);
      return sendSheet(reply, q.format, fileName, body);
    },
  );

  app.get(
    `${side.base}/template`,
    {
      config: { permission: side.permission },
      schema: {
        tags: [tag],
        summary:
          'The import template, XLSX or CSV: the columns the import reads and a row saying what each takes (skipped on import)',
        querystring: Type.Object({ format: Format }),
        response: { 200: FileResponse },
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      const lang = request.lang;
      const header = templateHeader(lang);
      const notes = templateNotes(lang);
      const fileName = `${NAMES[lang].template}.${format}`;
      const body =
        format === 'csv'
          ? csvStream(
              header,
              (async function* () {
                yield [notes];
              })(),
            )
          : Readable.from([await templateXlsx(NAMES[lang].cards, header, notes, lang)]);
      return sendSheet(reply, format, fileName, body);
    },
  );

  app.post(
    `${side.base}/import`,
    {
      config: { permission: side.permission },
      schema: {
        tags: [tag],
        summary: system
          ? "Import cards into the platform's stock, or update cards anywhere (multipart `file`: CSV or XLSX, told by its bytes)"
          : "Import the company's cards (multipart `file`: CSV or XLSX, told by its bytes): new cards are added, the company's own updated",
        consumes: ['multipart/form-data'],
        response: { 200: Envelope(ImportResultSchema) },
      },
    },
    async (request) => {
      const scope = side.scope(request);
      const form = await readForm(request, IMPORT_MAX_BYTES + 1);
      if (!form.file) throw fieldError('file', 'fieldRequired');
      if ('tooLarge' in form.file || form.file.bytes.length > IMPORT_MAX_BYTES) {
        throw fieldError('file', 'importTooLarge');
      }
      if (form.file.bytes.length === 0) throw fieldError('file', 'fieldRequired');
      let sheet: Awaited<ReturnType<typeof readSheet>>;
      try {
        sheet = await readSheet(form.file.bytes);
      } catch (error) {
        if (error instanceof SheetFormatError) throw fieldError('file', 'importFileFormat');
        if (error instanceof SheetTooLargeError) {
          throw new AppError(
            'importUnpackedTooLarge',
            { max: ZIP_MAX_UNPACKED_BYTES / 1024 / 1024 },
            { field: 'file' },
          );
        }
        throw error;
      }
      const [head, ...rest] = sheet.rows;
      if (!head) throw fieldError('file', 'simImportNoIccid');
      const map = mapSimHeader(head.cells);
      if ('key' in map) {
        throw new AppError(map.key, { column: map.column }, { field: 'file', column: map.column });
      }
      const rows = rest[0] && isNoteRow(rest[0].cells, map) ? rest.slice(1) : rest;
      if (rows.length > IMPORT_MAX_ROWS) {
        throw new AppError('importTooManyRows', { max: IMPORT_MAX_ROWS }, { field: 'file' });
      }
      const checked = checkSimRows(rows, map, request.lang);
      const written = await writeImport(app.db, scope, checked.good, request.lang);
      const rejected = [...checked.rejected, ...written.rejected].sort((x, y) => x.row - y.row);
      return ok(
        { total: rows.length, inserted: written.inserted, updated: written.updated, rejected },
        'operation',
        request.lang,
      );
    },
  );
}

/** The export's times read in the caller's company zone (the platform's for system maintenance too). */
export function zoneOf(app: App) {
  return async (request: FastifyRequest) => {
    const companyId = request.auth?.companyId;
    return companyTimeZone(app.db, companyId ?? 0);
  };
}
