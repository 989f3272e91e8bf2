/**
 * Device communication → data packages (cd_data_package) and parsing (cd_parsing), and the
 * frame counters of gateway ports (cd_device). API: docs/serial-data.md.
 */
import { checkPacket } from '@platform/domain';
import { Type } from 'typebox';
import { callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { AppError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Page, Paging, paging } from '../../platform/schemas';
import { dataCaller } from '../cabin/routes';
import { flushFrameCounters, frameStatsOf } from './frame-stats';
import { ingestFrames } from './frames';
import { getParser, saveParser, writableIotItems } from './parser-service';
import {
  addPackage,
  deletePackage,
  listPackages,
  packageFor,
  packageView,
  packageViewOf,
  updatePackage,
} from './service';

const PackageOut = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  frame: Type.String(),
  appendCrc: Type.Boolean(),
  crc: Type.Union([Type.String(), Type.Null()]),
  valueType: Type.String(),
  encoding: Type.String(),
  samplingId: Type.Integer(),
  parserValues: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

/** Types only: the rules (and the field they name) are the domain's checkPacket. */
const PackageIn = {
  name: Type.String({ maxLength: 200 }),
  frame: Type.String({ maxLength: 2000 }),
  appendCrc: Type.Boolean(),
  valueType: Type.String({ maxLength: 20 }),
  encoding: Type.String({ maxLength: 20 }),
  samplingId: Type.Integer({ minimum: -1000, maximum: 1000 }),
};

const Num = Type.Number();
const NullableNum = Type.Union([Type.Number(), Type.Null()]);

/** Types only: ranges, formats and bindings are checked by the domain, naming the value. */
const ValueIn = Type.Object({
  name: Type.String({ maxLength: 200 }),
  offset: Num,
  length: Num,
  valueType: Type.String({ maxLength: 20 }),
  format: Type.String({ maxLength: 20 }),
  order: Type.Optional(Type.String({ maxLength: 8 })),
  bit: Type.Optional(NullableNum),
  scale: Type.Optional(Num),
  valueOffset: Type.Optional(Num),
  decimals: Type.Optional(NullableNum),
  itemId: Type.Union([Num, Type.Null()]),
  fieldKey: Type.Union([Type.String({ maxLength: 64 }), Type.Null()]),
});

const ValueOut = Type.Object({
  name: Type.String(),
  offset: Type.Integer(),
  length: Type.Integer(),
  valueType: Type.String(),
  format: Type.String(),
  order: Type.String(),
  bit: Type.Union([Type.Integer(), Type.Null()]),
  scale: Type.Number(),
  valueOffset: Type.Number(),
  decimals: Type.Union([Type.Integer(), Type.Null()]),
  itemId: Type.Union([Type.Integer(), Type.Null()]),
  fieldKey: Type.Union([Type.String(), Type.Null()]),
});

const ItemOption = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  fields: Type.Array(
    Type.Object({
      key: Type.String(),
      name: Type.String(),
      type: Type.Integer(),
      unit: Type.Optional(Type.String()),
      decimals: Type.Optional(Type.Integer()),
    }),
  ),
  level: Type.Integer(),
});

const ParserOut = Type.Object({
  package: PackageOut,
  answerLength: Type.Union([Type.Integer(), Type.Null()]),
  values: Type.Array(ValueOut),
  updatedAt: Type.Union([Type.String(), Type.Null()]),
  updatedBy: Type.Union([Type.String(), Type.Null()]),
  items: Type.Array(ItemOption),
});

const Counts = {
  stored: Type.Integer(),
  badCrc: Type.Integer(),
  wrongLength: Type.Integer(),
  badAnswer: Type.Integer(),
  unknownPacket: Type.Integer(),
  decodeErrors: Type.Integer(),
  refused: Type.Integer(),
  malformed: Type.Integer(),
};

const StatsOut = Type.Object({
  sn: Type.String(),
  port: Type.Integer(),
  ...Counts,
  lastError: Type.Union([
    Type.Object({
      reason: Type.String(),
      packetId: Type.Union([Type.Integer(), Type.Null()]),
      message: Type.String(),
      at: Type.String(),
    }),
    Type.Null(),
  ]),
  lastFrameAt: Type.Union([Type.String(), Type.Null()]),
});

/** The packet the body describes, or the error naming its field (nothing written). */
function packetOf(body: Record<string, unknown>) {
  const checked = checkPacket(body);
  if (!checked.ok) {
    const params = { field: checked.field, ...checked.params };
    throw new AppError(checked.key, params, { field: checked.field });
  }
  return checked.value;
}

export default async function packetRoutes(app: App): Promise<void> {
  // a bound gateway's frames become records (docs/device-protocol.md, "Raw serial frames");
  // an unbound gateway's are dropped, as its JSON telemetry is
  app.gateways.onUp('frame', async ({ gateway, payload }) => {
    if (gateway.companyId === null) return;
    await ingestFrames(
      app,
      { sn: gateway.serialNumber, companyId: gateway.companyId, id: gateway.id },
      payload,
    );
  });

  app.get(
    '/devicecommunication/dataPackage/list',
    {
      config: { permission: 'cd_data_package' },
      schema: {
        tags: ['devicecommunication'],
        summary: "The company's serial packet definitions, newest change first, with a name search",
        querystring: Type.Object({ ...Paging, keyword: Type.Optional(Type.String({ maxLength: 50 })) }),
        response: { 200: Envelope(Page(PackageOut)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      const { list, total } = await listPackages(app.db, callerCompany(request), {
        keyword: request.query.keyword,
        limit: page.limit,
        offset: page.offset,
      });
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.get(
    '/devicecommunication/dataPackage/get',
    {
      config: { permission: 'cd_data_package' },
      schema: {
        tags: ['devicecommunication'],
        summary: 'One packet definition with the CRC bytes it appends',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(PackageOut) },
      },
    },
    async (request) => {
      return ok(await packageViewOf(app.db, callerCompany(request), request.query.id));
    },
  );

  app.post(
    '/devicecommunication/dataPackage/add',
    {
      config: { permission: 'cd_data_package' },
      schema: {
        tags: ['devicecommunication'],
        summary: 'Create a packet definition (hex by the seed rule, CRC-16/Modbus appended when asked)',
        body: Type.Object(PackageIn),
        response: { 200: Envelope(PackageOut) },
      },
    },
    async (request) => {
      const packet = packetOf(request.body);
      const caller = dataCaller(request);
      const row = await addPackage(app.db, caller.companyId, caller.userId, packet);
      return ok(packageView(row, null), 'operation', request.lang);
    },
  );

  app.post(
    '/devicecommunication/dataPackage/update',
    {
      config: { permission: 'cd_data_package' },
      schema: {
        tags: ['devicecommunication'],
        summary: "Change a packet definition (its parser's values must still fit the answer)",
        body: Type.Object({ id: Id, ...PackageIn }),
        response: { 200: Envelope(PackageOut) },
      },
    },
    async (request) => {
      const packet = packetOf(request.body);
      const companyId = callerCompany(request);
      await updatePackage(app.db, companyId, request.body.id, packet);
      return ok(await packageViewOf(app.db, companyId, request.body.id), 'operation', request.lang);
    },
  );

  app.post(
    '/devicecommunication/dataPackage/delete',
    {
      config: { permission: 'cd_data_package' },
      schema: {
        tags: ['devicecommunication'],
        summary: 'Delete a packet definition and its parser, unless a gateway configuration uses it',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const companyId = callerCompany(request);
      await deletePackage(app.db, companyId, request.body.id, (id) =>
        app.packetUses.whereUsed(app.db, companyId, id),
      );
      return ok(null, 'deleted', request.lang);
    },
  );

  app.get(
    '/devicecommunication/parsing/list',
    {
      config: { permission: 'cd_parsing' },
      schema: {
        tags: ['devicecommunication'],
        summary: 'The packets of the company with the number of values their parsers read',
        querystring: Type.Object({ ...Paging, keyword: Type.Optional(Type.String({ maxLength: 50 })) }),
        response: { 200: Envelope(Page(PackageOut)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      const { list, total } = await listPackages(app.db, callerCompany(request), {
        keyword: request.query.keyword,
        limit: page.limit,
        offset: page.offset,
      });
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.get(
    '/devicecommunication/parsing/get',
    {
      config: { permission: 'cd_parsing' },
      schema: {
        tags: ['devicecommunication'],
        summary: "A packet's parser: its values, and the bound items the caller can read",
        querystring: Type.Object({ dataPkgId: Id }),
        response: { 200: Envelope(ParserOut) },
      },
    },
    async (request) => {
      const caller = dataCaller(request);
      const row = await packageFor(app.db, caller.companyId, request.query.dataPkgId, 'dataPkgId');
      const parser = await getParser(app.db, caller, row);
      return ok({ package: packageView(row, parser.updatedAt ? parser.values.length : null), ...parser });
    },
  );

  app.post(
    '/devicecommunication/parsing/save',
    {
      config: { permission: 'cd_parsing' },
      schema: {
        tags: ['devicecommunication'],
        summary:
          "Save a packet's parser: each value bound to a field of a kind-13 item the caller may write, of a type that holds it",
        body: Type.Object({
          dataPkgId: Id,
          answerLength: Type.Optional(NullableNum),
          values: Type.Array(ValueIn, { maxItems: 1000 }),
        }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { dataPkgId, answerLength, values } = request.body;
      await saveParser(app.db, dataCaller(request), dataPkgId, { answerLength, values });
      return ok(null, 'operation', request.lang);
    },
  );

  app.get(
    '/devicecommunication/parsing/items',
    {
      config: { permission: 'cd_parsing' },
      schema: {
        tags: ['devicecommunication'],
        summary: 'The IoT data lists (kind 13) the caller may write, with their fields, for binding values',
        querystring: Type.Object({ keyword: Type.Optional(Type.String({ maxLength: 50 })) }),
        response: { 200: Envelope(Type.Array(ItemOption)) },
      },
    },
    async (request) => ok(await writableIotItems(app.db, dataCaller(request), request.query.keyword)),
  );

  app.get(
    '/devicecommunication/frameStats',
    {
      config: { permission: 'cd_device' },
      schema: {
        tags: ['devicecommunication'],
        summary: "What became of the serial frames of the company's gateway ports (optionally one gateway's)",
        querystring: Type.Object({ sn: Type.Optional(Type.String({ maxLength: 32 })) }),
        response: { 200: Envelope(Type.Array(StatsOut)) },
      },
    },
    async (request) => {
      // this node's counts of the last second first
      await flushFrameCounters(app);
      return ok(await frameStatsOf(app.db, callerCompany(request), request.query.sn));
    },
  );

  app.addHook('onClose', async () => {
    await flushFrameCounters(app);
  });
}
