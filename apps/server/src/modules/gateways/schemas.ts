/** Schemas of a gateway's reported state, shared by the registry and the device routes. */
import { GATEWAY_STATUSES } from '@platform/domain';
import { Type } from 'typebox';
import { Literals } from '../../platform/schemas';

const Time = Type.Union([Type.String(), Type.Null()]);
export const Status = Literals(GATEWAY_STATUSES);
export const PortHealthSchema = Type.Object({
  port: Type.Integer(),
  ok: Type.Boolean(),
  error: Type.Optional(Type.String()),
});
export const TelemetrySchema = Type.Object({
  ok: Type.Integer(),
  refused: Type.Integer(),
  dropped: Type.Integer(),
  lastAt: Time,
  lastRefusal: Type.Union([
    Type.Object({
      at: Type.String(),
      code: Type.Integer(),
      message: Type.String(),
      field: Type.Union([Type.String(), Type.Null()]),
      index: Type.Union([Type.Integer(), Type.Null()]),
      itemId: Type.Union([Type.Integer(), Type.Null()]),
    }),
    Type.Null(),
  ]),
});
