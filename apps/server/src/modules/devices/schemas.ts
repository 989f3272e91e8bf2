/** Schemas and codes shared by the device routes. */
import { GATEWAY_STATUSES, type MenuCode } from '@platform/domain';
import { Type } from 'typebox';
import { Literals } from '../../platform/schemas';
import { PortHealthSchema, TelemetrySchema } from '../gateways/schemas';

/** Both menus show the company's devices: device management's list and device communication's. */
export const DEVICE_CODES: readonly MenuCode[] = ['dm_list', 'cd_device'];

const Time = Type.Union([Type.String(), Type.Null()]);

export const PictureSchema = Type.Union([
  Type.Object({ preset: Type.String() }),
  Type.Object({
    url: Type.String({ description: 'signed link, valid 10 to 20 minutes' }),
    thumbnailUrl: Type.String({ description: 'the 150 px thumbnail, signed' }),
  }),
]);

export const DeviceRowSchema = Type.Object({
  id: Type.Integer({ description: "the device id: the gateway's registry id" }),
  serialNumber: Type.String(),
  name: Type.String(),
  model: Type.String(),
  address: Type.String(),
  picture: PictureSchema,
  online: Type.Boolean(),
  status: Literals(GATEWAY_STATUSES),
  onlineAt: Time,
  offlineAt: Time,
  lastSeenAt: Time,
  firstBoundAt: Type.String(),
  boundAt: Time,
  updatedAt: Type.String(),
  firmware: Type.Union([Type.String(), Type.Null()]),
  nodeId: Type.Integer({ description: "the device's node in the data cabin" }),
  level: Type.Integer({
    description: "the caller's data permission on the device: 1 read, 2 read-write, 3 administrator",
  }),
});

export const DeviceDetailSchema = Type.Object({
  ...DeviceRowSchema.properties,
  iccid: Type.Union([Type.String(), Type.Null()]),
  configVersion: Type.Union([Type.Integer(), Type.Null()]),
  configHash: Type.Union([Type.String(), Type.Null()]),
  ports: Type.Array(PortHealthSchema),
  parentId: Type.Union([Type.Integer(), Type.Null()]),
  path: Type.Array(Type.String(), { description: 'the cabin directories above it the caller can read' }),
  telemetry: TelemetrySchema,
});
