/** The firmware routes' answers (docs/firmware.md; the web reads the same shapes). */
import { UPGRADE_FAILURE_REASONS, UPGRADE_STATES } from '@platform/domain';
import { Type } from 'typebox';
import { Literals } from '../../platform/schemas';

const Time = Type.Union([Type.String(), Type.Null()]);
const Who = Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]);

export const VersionSchema = Type.Object({
  id: Type.Integer(),
  model: Type.String({ description: 'the gateway model it applies to (the release note route’s typeId)' }),
  version: Type.String(),
  size: Type.Integer({ description: 'bytes' }),
  sha256: Type.String({ description: 'of the stored image, computed by the server' }),
  notesZh: Type.String(),
  notesEn: Type.String(),
  fileName: Type.String(),
  uploadedAt: Type.String(),
  uploadedBy: Who,
});

export const DeviceVersionSchema = Type.Object({
  ...VersionSchema.properties,
  newer: Type.Boolean({ description: 'newer than the firmware the gateway runs' }),
});

export const UpgradeSchema = Type.Object({
  id: Type.Integer(),
  deviceId: Type.Integer(),
  serialNumber: Type.String(),
  deviceName: Type.String(),
  versionId: Type.Union([Type.Integer(), Type.Null()]),
  version: Type.String(),
  fromVersion: Type.Union([Type.String(), Type.Null()]),
  state: Literals(UPGRADE_STATES),
  progress: Type.Union([Type.Integer(), Type.Null()]),
  reason: Type.Union([Literals(UPGRADE_FAILURE_REASONS), Type.Null()]),
  detail: Type.Union([Type.String(), Type.Null()]),
  message: Type.Union([Type.String(), Type.Null()], {
    description:
      'once ended: "Firmware update succeeded" or "Firmware update failed, please try again later."',
  }),
  batchId: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Type.String(),
  createdBy: Who,
  dispatchedAt: Time,
  updatedAt: Type.String(),
  endedAt: Time,
  timeouts: Type.Object({ ack: Type.Integer(), progress: Type.Integer(), total: Type.Integer() }),
  live: Type.Boolean(),
});

export const DevicePageSchema = Type.Object({
  device: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    serialNumber: Type.String(),
    model: Type.String(),
    firmware: Type.Union([Type.String(), Type.Null()]),
    online: Type.Boolean(),
    level: Type.Integer(),
  }),
  versions: Type.Array(DeviceVersionSchema),
  upgrade: Type.Union([UpgradeSchema, Type.Null()]),
});

export const BatchResultSchema = Type.Object({
  batchId: Type.Integer(),
  results: Type.Array(
    Type.Object({
      id: Type.Integer(),
      upgrade: Type.Union([UpgradeSchema, Type.Null()]),
      error: Type.Union([Type.Object({ code: Type.Integer(), message: Type.String() }), Type.Null()]),
    }),
  ),
});

export const BatchViewSchema = Type.Object({
  batchId: Type.Integer(),
  versionId: Type.Union([Type.Integer(), Type.Null()]),
  version: Type.String(),
  createdAt: Type.String(),
  counts: Type.Record(Type.String(), Type.Integer()),
  list: Type.Array(UpgradeSchema),
});

export const Notes = Type.String({ maxLength: 5000 });
export const VersionText = Type.String({ minLength: 1, maxLength: 32 });
export const Model = Type.String({ minLength: 1, maxLength: 32 });
export const SerialNumber = Type.String({ minLength: 1, maxLength: 32 });
