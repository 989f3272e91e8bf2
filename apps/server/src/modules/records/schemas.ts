/** Schemas and helpers shared by the record routes. */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { caller, callerCompany } from '../../platform/auth';
import type { DataCaller } from '../cabin/permissions';

export const PERMISSION = 'sd_capsule';

export const StoredFileSchema = Type.Object({
  url: Type.String(),
  name: Type.String(),
  size: Type.Number(),
  thumbUrl: Type.Optional(Type.String()),
});

const RecordValue = Type.Union([Type.Number(), Type.String(), Type.Null(), Type.Array(StoredFileSchema)]);
export const RecordValues = Type.Record(Type.String(), RecordValue);

/** Values as sent: checked and coerced by checkRecord, so any JSON is accepted here. */
export const InputValues = Type.Record(Type.String(), Type.Unknown(), {
  description: 'by field key or field name',
});

export const RecordRow = Type.Object({
  id: Type.Integer(),
  ts: Type.String({ description: 'ISO instant' }),
  values: RecordValues,
  parentId: Type.Union([Type.Integer(), Type.Null()]),
  source: Type.String(),
  createdAt: Type.String(),
  createdBy: Type.Union([Type.Integer(), Type.Null()]),
});

export const QueryWindow = {
  from: Type.Optional(Type.String({ maxLength: 40, description: 'ISO instant, inclusive' })),
  to: Type.Optional(Type.String({ maxLength: 40, description: 'ISO instant, inclusive' })),
  filters: Type.Optional(
    Type.String({ maxLength: 4000, description: 'JSON text [{field, op, value}], op one of JUMP_OPERATORS' }),
  ),
};

export function dataCaller(request: FastifyRequest): DataCaller {
  return { companyId: callerCompany(request), userId: caller(request).userId };
}
