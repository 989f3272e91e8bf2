/**
 * Files of the record table: export (CSV / XLSX download), import (multipart CSV / XLSX, good
 * rows written in one transaction through the ingest pipeline, bad rows reported by their
 * row number) and upload of picture and file values (into the private bucket: the answer holds
 * signed links, the record keeps references, see stored-files.ts).
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { checkRecord, DATA_PERMISSION, IMAGE_MAX_BYTES, type StoredFile } from '@platform/domain';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { AppError, fieldError, ok } from '../../platform/envelope';
import { checkAndThumbnail } from '../../platform/images';
import { Envelope, Id } from '../../platform/schemas';
import { RECORD_FILES_AREA } from '../../platform/storage';
import { companyTimeZone } from '../companies/service';
import { localizeRecordError } from '../ingest/pipeline';
import { formId, readForm } from './multipart';
import { parseFilters, parseInstant, whereOf } from './query';
import { dataCaller, PERMISSION, QueryWindow, StoredFileSchema } from './schemas';
import { itemFor, recordBatches } from './service';
import {
  attachment,
  csvStream,
  readSheet,
  SheetFormatError,
  SheetTooLargeError,
  templateXlsx,
  xlsxStream,
} from './spreadsheet';
import { recordFileRef, withFileLink } from './stored-files';
import { checkRows, dataRows, exportHeader, exportRow, mapHeader, templateRows } from './table-io';
import { ZIP_MAX_UNPACKED_BYTES } from './zip-guard';

const ZIP_MAX_UNPACKED_MB = ZIP_MAX_UNPACKED_BYTES / 1024 / 1024;

export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 20_000;
export const FILE_MAX_BYTES = 20 * 1024 * 1024;

const ImportResult = Type.Object({
  total: Type.Integer({ description: 'data rows in the file (header and blank rows not counted)' }),
  inserted: Type.Integer(),
  rejected: Type.Array(
    Type.Object({
      row: Type.Integer({ description: 'row number in the file, header = 1' }),
      field: Type.String(),
      message: Type.String(),
    }),
  ),
});

const TEMPLATE_SUFFIX = { zh: '导入模板', en: 'import template' } as const;

export function stamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
}

/** A spreadsheet download: never cached, named for the person saving it. */
export function sendSheet(reply: FastifyReply, format: 'csv' | 'xlsx', fileName: string, body: Readable) {
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

export default async function fileRoutes(app: App): Promise<void> {
  app.get(
    '/smartdata/record/export',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['records'],
        summary: "Download an item's records as CSV (UTF-8 with BOM) or XLSX, oldest first",
        querystring: Type.Object({
          itemId: Id,
          format: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')]),
          ...QueryWindow,
        }),
        response: {
          200: Type.Unsafe<Readable>({ type: 'string', format: 'binary', description: 'the file' }),
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const item = await itemFor(app.db, dataCaller(request), q.itemId, DATA_PERMISSION.read);
      const where = whereOf(
        {
          itemId: item.id,
          from: parseInstant('from', q.from),
          to: parseInstant('to', q.to),
          filters: parseFilters(q.filters, item.fields),
        },
        item.fields,
      );
      const lang = request.lang;
      const tz = await companyTimeZone(app.db, item.companyId);
      const header = exportHeader(item.fields, lang);
      const batches = (async function* () {
        for await (const batch of recordBatches(app.db, item, where)) {
          yield batch.map((r) => exportRow(r, item.fields, lang, tz));
        }
      })();
      const fileName = `${item.name}-${stamp(new Date())}.${q.format}`;
      const body = q.format === 'csv' ? csvStream(header, batches) : xlsxStream(item.name, header, batches);
      return sendSheet(reply, q.format, fileName, body);
    },
  );

  app.get(
    '/smartdata/record/template',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['records'],
        summary:
          "An item's import template, XLSX or CSV: the header the import reads (time, then field names with units) and a row saying what each column takes, which the import skips",
        querystring: Type.Object({
          itemId: Id,
          format: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')]),
        }),
        response: {
          200: Type.Unsafe<Readable>({ type: 'string', format: 'binary', description: 'the file' }),
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const item = await itemFor(app.db, dataCaller(request), q.itemId, DATA_PERMISSION.read);
      const lang = request.lang;
      const { header, note } = templateRows(item.fields, lang);
      const fileName = `${item.name}-${TEMPLATE_SUFFIX[lang]}.${q.format}`;
      const body =
        q.format === 'csv'
          ? csvStream(
              header,
              (async function* () {
                yield [note];
              })(),
            )
          : Readable.from([await templateXlsx(item.name, header, note, lang)]);
      return sendSheet(reply, q.format, fileName, body);
    },
  );

  app.post(
    '/smartdata/record/import',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['records'],
        summary:
          'Import records (multipart `itemId`, `file`: CSV or XLSX by its bytes; header row names time and fields)',
        consumes: ['multipart/form-data'],
        response: { 200: Envelope(ImportResult) },
      },
    },
    async (request) => {
      const form = await readForm(request, IMPORT_MAX_BYTES + 1);
      const who = dataCaller(request);
      const item = await itemFor(app.db, who, formId(form, 'itemId'), DATA_PERMISSION.write);
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
          throw new AppError('importUnpackedTooLarge', { max: ZIP_MAX_UNPACKED_MB }, { field: 'file' });
        }
        throw error;
      }
      const [head, ...rows] = sheet.rows;
      if (!head) throw fieldError('file', 'importNoColumns');
      if (rows.length > IMPORT_MAX_ROWS) {
        throw new AppError('importTooManyRows', { max: IMPORT_MAX_ROWS }, { field: 'file' });
      }
      const map = mapHeader(head.cells, item.fields);
      if ('key' in map)
        throw new AppError(map.key, { column: map.column }, { field: 'file', column: map.column });
      const tz = await companyTimeZone(app.db, who.companyId);
      const data = dataRows(rows, map);
      const { good, rejected } = checkRows(data, map, item.fields, request.lang, tz);
      let inserted = 0;
      if (good.length > 0) {
        try {
          // one call: the pipeline writes one call's rows in one transaction
          const { ids } = await app.ingest.write({
            companyId: who.companyId,
            userId: who.userId,
            source: 'import',
            records: good.map((r) => ({ itemId: item.id, ts: r.ts, values: r.values })),
          });
          inserted = ids.length;
        } catch (error) {
          throw error instanceof AppError ? localizeRecordError(error, request.lang) : error;
        }
      }
      return ok({ total: data.length, inserted, rejected }, 'operation', request.lang);
    },
  );

  app.post(
    '/smartdata/record/upload',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['records'],
        summary:
          'Upload a picture (JPG/PNG by its bytes, at most 3 MB, 150 px thumbnail) or a file (at most 20 MB) for a field; multipart `itemId`, `field`, `file`',
        consumes: ['multipart/form-data'],
        response: { 200: Envelope(StoredFileSchema) },
      },
    },
    async (request) => {
      const form = await readForm(request, FILE_MAX_BYTES + 1);
      const who = dataCaller(request);
      const item = await itemFor(app.db, who, formId(form, 'itemId'), DATA_PERMISSION.write);
      const key = form.fields.field;
      if (!key) throw fieldError('field', 'fieldRequired');
      const field = item.fields.find((f) => f.key === key) ?? item.fields.find((f) => f.name === key);
      if (!field) throw fieldError('field');
      if (field.type !== 8 && field.type !== 9) throw new AppError('uploadFieldType', {}, { field: 'field' });
      const picture = field.type === 8;
      if (!form.file) throw fieldError('file', 'fieldRequired');
      if ('tooLarge' in form.file) throw fieldError('file', picture ? 'imageTooLarge' : 'fileTooLarge');
      const { bytes } = form.file;
      if (bytes.length === 0) throw fieldError('file', 'fieldRequired');
      const name = cleanName(form.file.name) || (picture ? 'image' : 'file');
      // private bucket, random names: readers of the record get signed links to them
      const stem = `${RECORD_FILES_AREA}${who.companyId}/${item.id}/${randomBytes(16).toString('hex')}`;
      let stored: StoredFile;
      if (picture) {
        if (bytes.length > IMAGE_MAX_BYTES) throw fieldError('file', 'imageTooLarge');
        const image = await checkAndThumbnail('file', bytes);
        const ext = image.kind === 'png' ? 'png' : 'jpg';
        const type = image.kind === 'png' ? 'image/png' : 'image/jpeg';
        await app.storage.put('private', `${stem}.${ext}`, image.bytes, type);
        await app.storage.put('private', `${stem}-thumb.${ext}`, image.thumbnail, type);
        stored = {
          url: recordFileRef(`${stem}.${ext}`),
          name,
          size: bytes.length,
          thumbUrl: recordFileRef(`${stem}-thumb.${ext}`),
        };
      } else {
        if (bytes.length > FILE_MAX_BYTES) throw fieldError('file', 'fileTooLarge');
        const ext = /\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1]?.toLowerCase();
        const fileKey = ext ? `${stem}.${ext}` : stem;
        await app.storage.put('private', fileKey, bytes, 'application/octet-stream');
        stored = { url: recordFileRef(fileKey), name, size: bytes.length };
      }
      return ok(withFileLink(app.fileLinks, checkedRef(stored), who.companyId), 'operation', request.lang);
    },
  );
}

/** The file's own name without any path, control characters or excess length. */
function cleanName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  return [...base.replace(/[\u0000-\u001f\u007f]/g, '').trim()].slice(0, 255).join('');
}

/** Record values only accept our own file references (checkRecord): fail loudly otherwise. */
function checkedRef(file: StoredFile): StoredFile {
  const checked = checkRecord([{ key: 'f', name: 'f', type: 9 }], { f: [file] });
  if (!checked.ok) throw new Error('an uploaded file got a reference records do not accept');
  return file;
}
