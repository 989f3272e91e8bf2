/**
 * Request and response shapes of the gateway configuration routes. A configuration's shape is
 * bounded here (sizes, flat settings of plain values) so hostile input is refused before any
 * work; whether it makes sense is the check's to say (packages/domain config-check.ts), so a
 * half-finished configuration can still be saved and checked.
 */
import {
  CONFIG_PUSH_STATES,
  type ConfigPushState,
  type GatewayConfig,
  MAX_GATEWAY_LINKS,
  MAX_GATEWAY_NODES,
} from '@platform/domain';
import { Type } from 'typebox';
import { Id } from '../../platform/schemas';

/** Beyond the node maximum, up to this, a configuration is still read (to answer with the spec's message). */
export const NODES_READ_MAX = MAX_GATEWAY_NODES * 4;

const Setting = Type.Union([Type.String({ maxLength: 1000 }), Type.Number(), Type.Boolean(), Type.Null()]);

export const ConfigNode = Type.Object(
  {
    id: Type.String({ maxLength: 64 }),
    type: Type.String({ maxLength: 32 }),
    name: Type.String({ maxLength: 100 }),
    settings: Type.Record(Type.String(), Setting, {
      maxProperties: 24,
      propertyNames: { maxLength: 32 },
      description: 'the settings of the node type (docs/gateway-config.md): plain values only',
    }),
    position: Type.Optional(
      Type.Object(
        { x: Type.Number({ minimum: -1e6, maximum: 1e6 }), y: Type.Number({ minimum: -1e6, maximum: 1e6 }) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const Config = Type.Object(
  {
    nodes: Type.Array(ConfigNode, { maxItems: NODES_READ_MAX }),
    links: Type.Array(
      Type.Object(
        { from: Type.String({ maxLength: 64 }), to: Type.String({ maxLength: 64 }) },
        { additionalProperties: false },
      ),
      { maxItems: MAX_GATEWAY_LINKS * 4 },
    ),
  },
  { additionalProperties: false },
);

/** A configuration in an answer: the same shape, typed as the domain's. */
export const ConfigOut = Type.Unsafe<GatewayConfig>(Config);

const Person = Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]);

export const VersionMeta = Type.Object({
  version: Type.Integer(),
  hash: Type.String({ description: 'SHA-256 of the canonical form, hex' }),
  nodeCount: Type.Integer(),
  savedAt: Type.String(),
  savedBy: Person,
  restoredFrom: Type.Union([Type.Integer(), Type.Null()]),
});

export const PushView = Type.Object({
  id: Type.Integer(),
  version: Type.Integer(),
  hash: Type.String({ description: 'SHA-256 of what was pushed (frames filled in)' }),
  state: Type.Unsafe<ConfigPushState>({ type: 'string', enum: [...CONFIG_PUSH_STATES] }),
  confirmWithin: Type.Integer(),
  pushedAt: Type.String(),
  pushedBy: Person,
  answeredAt: Type.Union([Type.String(), Type.Null()]),
  errors: Type.Array(
    Type.Object({
      node: Type.Union([Type.String(), Type.Null()]),
      field: Type.Union([Type.String(), Type.Null()]),
      message: Type.String(),
    }),
  ),
  runningVersion: Type.Union([Type.Integer(), Type.Null()]),
});

export const Device = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  serialNumber: Type.String(),
  model: Type.String(),
  online: Type.Boolean(),
  bound: Type.Boolean(),
  level: Type.Integer({
    description: 'the caller’s data permission on the device: 1 read, 2 read-write, 3 administrator',
  }),
  runningVersion: Type.Union([Type.Integer(), Type.Null()]),
  runningHash: Type.Union([Type.String(), Type.Null()]),
});

export const DeviceState = Type.Object({
  device: Device,
  head: Type.Union([VersionMeta, Type.Null()]),
  lastPush: Type.Union([PushView, Type.Null()]),
  confirmWithin: Type.Integer(),
});

export const SaveResult = Type.Object({
  version: Type.Integer(),
  hash: Type.String(),
  created: Type.Boolean({
    description: 'false when the content equalled the latest version (only the layout was kept)',
  }),
});

export const Problem = Type.Object({
  severity: Type.Union([Type.Literal('error'), Type.Literal('warning')]),
  node: Type.Union([Type.String(), Type.Null()]),
  field: Type.Union([Type.String(), Type.Null()]),
  key: Type.String(),
  params: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
  link: Type.Optional(Type.Object({ from: Type.String(), to: Type.String() })),
  message: Type.String(),
});

export const Lookups = Type.Object({
  packages: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      parserValues: Type.Union([Type.Array(Type.String()), Type.Null()]),
    }),
  ),
  items: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      fields: Type.Array(Type.Object({ key: Type.String(), name: Type.String() })),
    }),
  ),
});

export const BaseVersion = Type.Union([Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }), Type.Null()], {
  description: 'the version the editor loaded; null when it loaded none',
});

export const DeviceQuery = Type.Object({ id: Id });
