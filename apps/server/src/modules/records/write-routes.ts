/**
 * Adding and editing single records. A new record goes through the ingest pipeline like every
 * other source (validation, rollups, jump associations, live fan-out); an edit checks only the
 * fields sent, keeps the rest, and recomputes the rollup buckets of the record's time.
 */
import { checkRecord, DATA_PERMISSION, isBlankValue, isRecordTime } from '@platform/domain';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { AppError, fieldError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id } from '../../platform/schemas';
import { companyTimeZone } from '../companies/service';
import { localizeRecordError } from '../ingest/pipeline';
import { dataCaller, InputValues, PERMISSION } from './schemas';
import { itemFor, recordOf, requireParent, saveValues } from './service';

/** A record check's failure as the route's error: the field key in data.field, its name in the text. */
function recordFieldError(failure: { field: string; key: Parameters<typeof fieldError>[1]; name: string }) {
  return new AppError(failure.key ?? 'validation', { field: failure.name }, { field: failure.field });
}

export default async function writeRoutes(app: App): Promise<void> {
  app.post(
    '/smartdata/record/add',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['records'],
        summary: 'Add a record (values by field key or name, checked against the fields)',
        body: Type.Object({
          itemId: Id,
          values: InputValues,
          ts: Type.Optional(Type.String({ maxLength: 40, description: 'ISO instant; now when absent' })),
          parentId: Type.Optional(Type.Union([Id, Type.Null()])),
        }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })) },
      },
    },
    async (request) => {
      const { itemId, values, ts, parentId } = request.body;
      const who = dataCaller(request);
      const item = await itemFor(app.db, who, itemId, DATA_PERMISSION.write);
      let time: Date | undefined;
      if (ts !== undefined && ts !== '') {
        time = new Date(ts);
        if (!/^\d{4}-\d{2}-\d{2}/.test(ts) || !isRecordTime(time.getTime())) throw fieldError('ts');
      }
      // checked here too, so the error names the field the way the other record routes do
      const checked = checkRecord(item.fields, values, { tz: await companyTimeZone(app.db, who.companyId) });
      if (!checked.ok) throw recordFieldError(checked);
      // a record of nothing at all is a slip (a form sent blank), not data: refused, nothing written
      if (Object.values(checked.values).every(isBlankValue)) {
        throw new AppError('recordEmpty', {}, { field: 'values' });
      }
      if (parentId != null) await requireParent(app.db, who, parentId);
      try {
        const { ids } = await app.ingest.write({
          companyId: who.companyId,
          userId: who.userId,
          source: item.kind === 11 ? 'form' : 'manual',
          records: [{ itemId: item.id, ts: time, values: checked.values, parentId: parentId ?? null }],
        });
        return ok({ id: ids[0]! }, 'operation', request.lang);
      } catch (error) {
        throw error instanceof AppError ? localizeRecordError(error, request.lang) : error;
      }
    },
  );

  app.post(
    '/smartdata/record/update',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['records'],
        summary: 'Change values of a record; fields not sent keep their values',
        body: Type.Object({ itemId: Id, id: Id, values: InputValues }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { itemId, id, values } = request.body;
      const who = dataCaller(request);
      const item = await itemFor(app.db, who, itemId, DATA_PERMISSION.write);
      const record = await recordOf(app.db, item, id);
      const checked = checkRecord(item.fields, values, {
        partial: true,
        tz: await companyTimeZone(app.db, who.companyId),
      });
      if (!checked.ok) throw recordFieldError(checked);
      await saveValues(app.db, item, record.id, record.ts, { ...record.values, ...checked.values });
      return ok(null, 'operation', request.lang);
    },
  );
}
