/**
 * The fuzzer's world: two companies, each with a directory, a table item of every field
 * type, a form item, a jump, records, submission keys (user and device), a role, a group,
 * a delegation, an analysis job, a report, a document template, custom permissions, an item
 * group, an IoT item with a serial packet and its parser, an invitation to the other
 * company's user, and a device with its maintenance. Everything is made through the API by
 * each company's administrator, and every valid body and query sent is kept as a seed that
 * the fuzzer later fills with hostile values.
 */
import { expect } from 'vitest';
import { makeDevice } from '../../modules/devices/test-support';
import { bearer, makeCompany, type TestApp, type TestCompany } from '../helper';
import type { Corpus } from './requests';

export interface Tenant {
  company: TestCompany;
  itemId: number;
  /** user key and device key (dev-1) of the administrator */
  keys: string[];
  ids: number[];
}

type Call = (
  token: string | null,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  query?: Record<string, unknown>,
) => Promise<{ code: number; data: Record<string, unknown> }>;

function caller(t: TestApp, corpus: Corpus): Call {
  return async (token, method, url, body, query) => {
    const search = query
      ? `?${Object.entries(query)
          .map(([k, v]) => `${k}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`)
          .join('&')}`
      : '';
    const res = await t.app.inject({
      method,
      url: `/general${url}${search}`,
      headers: token ? bearer(token) : {},
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    const json = res.headers['content-type']?.toString().includes('json')
      ? res.json()
      : { code: 0, data: {} };
    expect(json.code, `fixture ${method} ${url}: ${res.body.slice(0, 300)}`).toBe(0);
    const key = `${method} /general${url}`;
    if (body !== undefined) corpus.bodies.set(key, [...(corpus.bodies.get(key) ?? []), body]);
    if (query) corpus.queries.set(key, [...(corpus.queries.get(key) ?? []), query]);
    return json;
  };
}

const FIELDS = [
  { name: '温度', type: 1, unit: '℃', decimals: 2 },
  { name: 'count', type: 10 },
  { name: 'note', type: 5 },
  { name: 'when', type: 4, dateFormat: 'yyyy-MM-dd HH:mm:ss' },
  { name: 'story', type: 6 },
  { name: 'photo', type: 8 },
  { name: 'attachment', type: 9 },
];

async function buildTenant(
  t: TestApp,
  corpus: Corpus,
  company: TestCompany,
  other: TestCompany,
): Promise<Tenant> {
  const call = caller(t, corpus);
  const token = company.admin.token;
  const id = (r: { data: Record<string, unknown> }, name = 'id') => r.data[name] as number;

  const dir = id(
    await call(token, 'POST', '/smartdata/cabin/create', { type: 'directory', name: 'Fuzz dir' }),
  );
  const itemNode = await call(token, 'POST', '/smartdata/cabin/create', {
    type: 'dataItem',
    name: 'Fuzz table',
    kind: 10,
    parentId: dir,
  });
  const itemId = id(itemNode, 'refId');
  await call(token, 'POST', '/smartdata/item/update', {
    itemId,
    fields: FIELDS,
    sources: [{ deviceId: 'dev-1', deviceName: 'Sensor', ip: '10.0.0.1' }],
    titleField: 'f3',
    publicCollect: false,
    description: 'fuzz',
  });
  const formNode = await call(token, 'POST', '/smartdata/cabin/create', {
    type: 'dataItem',
    name: 'Fuzz form',
    kind: 11,
  });
  const formItemId = id(formNode, 'refId');
  await call(token, 'POST', '/smartdata/item/update', { itemId: formItemId, fields: FIELDS.slice(0, 3) });
  await call(token, 'POST', '/smartdata/item/updateForm', {
    itemId: formItemId,
    form: [
      { id: 'e1', type: 'number', label: 'Count', field: 'f2', required: false },
      { id: 'e2', type: 'input', label: 'Note', field: 'f3', required: true },
    ],
  });
  const jumpId = id(
    await call(token, 'POST', '/smartdata/item/saveJump', {
      itemId,
      priority: 1,
      name: 'Fuzz jump',
      conditions: [{ field: 'f2', op: 'gt', value: 1 }],
      targetItemId: formItemId,
      mapping: [{ to: 'f2', from: 'f2' }],
      enabled: true,
    }),
  );
  const values = { f1: 21.5, f2: 3, f3: 'hello', f4: '2025-03-01T02:00:00.000Z', f5: 'long text' };
  const recordId = id(
    await call(token, 'POST', '/smartdata/record/add', { itemId, values, ts: '2025-03-01T02:00:00Z' }),
  );
  const childId = id(
    await call(token, 'POST', '/smartdata/record/add', { itemId, values: { f2: 1 }, parentId: recordId }),
  );
  await call(token, 'POST', '/smartdata/record/update', { itemId, id: childId, values: { f3: 'changed' } });

  const userKey = await call(token, 'POST', '/smartdata/key/create', { name: 'Fuzz key', kind: 'user' });
  const deviceKey = await call(token, 'POST', '/smartdata/key/create', {
    name: 'Fuzz device',
    kind: 'device',
    deviceId: 'dev-1',
  });
  const keys = [userKey.data.key as string, deviceKey.data.key as string];
  const submission = { itemId, ts: 1_740_787_200_000, f1: 20, count: 2, note: 'from a device' };
  const submitted = await t.app.inject({
    method: 'POST',
    url: '/general/smartdata/submit',
    headers: { authorization: keys[0]! },
    payload: submission,
  });
  expect(submitted.json().code, submitted.body).toBe(0);
  corpus.bodies.set('POST /general/smartdata/submit', [
    ...(corpus.bodies.get('POST /general/smartdata/submit') ?? []),
    submission,
    [submission, { itemId, f2: 5 }],
  ]);

  const roleId = id(
    await call(token, 'POST', '/role/addRole', {
      name: 'Fuzz role',
      description: 'fuzz',
      roleType: 2,
      menuCodes: ['smart_data', 'sd_capsule'],
    }),
  );
  const groupId = id(
    await call(token, 'POST', '/company/group/addGroup', { name: 'Fuzz group', description: 'g' }),
  );
  await call(token, 'POST', '/company/group/addUserToGroup', undefined, {
    groupId,
    userIds: [company.limited.id],
  });
  const delegationId = id(
    await call(token, 'POST', '/company/addAlertDelegator', { delegateId: company.limited.id }),
  );
  const jobId = id(
    await call(token, 'POST', '/smartdata/analysis/save', {
      itemId,
      name: 'Fuzz job',
      enabled: false,
      cron: '0 0 * * * ?',
      assignments: [
        { field: 'f2', mode: 'custom', value: 1 },
        { field: 'f1', mode: 'ref', sources: [{ itemId, field: 'f1' }], method: 'totalToday' },
      ],
    }),
  );
  await call(token, 'POST', '/smartdata/analysis/run', { itemId, id: jobId });
  const reportNode = id(
    await call(token, 'POST', '/smartdata/cabin/create', { type: 'report', name: 'Fuzz report' }),
  );
  await call(token, 'POST', '/smartdata/report/save', {
    id: reportNode,
    template: {
      title: 'Fuzz report',
      rows: 3,
      cols: 2,
      colWidths: [120, 120],
      merges: [{ row: 0, col: 0, rowSpan: 1, colSpan: 2 }],
      cells: [
        { row: 0, col: 0, kind: 'text', text: 'title' },
        { row: 1, col: 0, kind: 'bind', itemId, field: 'f1', method: 'latest', decimals: 1 },
        {
          row: 2,
          col: 1,
          kind: 'bind',
          itemId,
          field: 'f2',
          method: 'rangeSum',
          range: 'period',
          from: '2025-01-01T00:00:00Z',
          to: '2025-12-31T00:00:00Z',
        },
      ],
    },
  });
  const docNode = id(
    await call(token, 'POST', '/smartdata/cabin/create', { type: 'docTemplate', name: 'Fuzz doc' }),
  );
  await call(token, 'POST', '/smartdata/template/save', { id: docNode, html: '<p>{{f3}}</p>', itemId });
  await call(token, 'POST', '/smartdata/cabin/permission', {
    nodeId: dir,
    mode: 'custom',
    entries: [
      { scope: 'company', subjectId: null, level: 1 },
      { scope: 'group', subjectId: groupId, level: 2 },
      { scope: 'user', subjectId: company.limited.id, level: 3 },
    ],
  });
  const itemGroupId = id(
    await call(token, 'POST', '/smartdata/itemgroup/save', {
      name: 'Fuzz items',
      itemIds: [itemId, formItemId],
    }),
  );
  // serial packets: an IoT item, a packet read as Modbus, its parser bound to the item
  const meterNode = await call(token, 'POST', '/smartdata/cabin/create', {
    type: 'dataItem',
    name: 'Fuzz meter',
    kind: 13,
  });
  const meterItemId = id(meterNode, 'refId');
  await call(token, 'POST', '/smartdata/item/update', {
    itemId: meterItemId,
    fields: [
      { name: 'volts', type: 1, decimals: 2 },
      { name: 'state', type: 10 },
    ],
  });
  const packetId = id(
    await call(token, 'POST', '/devicecommunication/dataPackage/add', {
      name: 'Fuzz packet',
      frame: '01 03 00 00 00 02',
      appendCrc: true,
      valueType: 'byte',
      encoding: 'HEX',
      samplingId: 1,
    }),
  );
  await call(token, 'POST', '/devicecommunication/parsing/save', {
    dataPkgId: packetId,
    answerLength: null,
    values: [
      {
        name: 'volts',
        offset: 0,
        length: 4,
        valueType: 'decimal',
        format: 'float',
        order: 'CDAB',
        bit: null,
        scale: 1,
        valueOffset: 0,
        decimals: 2,
        itemId: meterItemId,
        fieldKey: 'f1',
      },
      {
        name: 'state',
        offset: 0,
        length: 2,
        valueType: 'integer',
        format: 'bit',
        order: 'ABCD',
        bit: 3,
        scale: 1,
        valueOffset: 0,
        decimals: null,
        itemId: meterItemId,
        fieldKey: 'f2',
      },
    ],
  });
  await call(token, 'GET', '/devicecommunication/parsing/get', undefined, { dataPkgId: packetId });
  await call(token, 'GET', '/devicecommunication/dataPackage/get', undefined, { id: packetId });
  await call(token, 'GET', '/devicecommunication/dataPackage/list', undefined, {
    keyword: 'Fuzz',
    pageNum: 1,
  });
  await call(token, 'GET', '/devicecommunication/parsing/items', undefined, { keyword: 'Fuzz' });
  await call(token, 'POST', '/company/member/inviteMember', {
    phone: other.limited.phone,
    roleIds: [roleId],
  });

  // a device (bound straight, there is no gateway to press a button here), its maintenance
  const device = await makeDevice(t, company.id, {
    name: 'Fuzz DTU',
    parentId: dir,
    userId: company.admin.id,
  });
  await call(token, 'POST', '/devicemanagement/device/update', {
    id: device.id,
    name: 'Fuzz DTU',
    address: 'Hall 1',
    picture: 'meter',
  });
  const maintenanceId = id(
    await call(token, 'POST', '/devicemanagement/maintenance/records/create', {
      deviceId: device.id,
      date: '2026-01-05',
      kind: 'repair',
      description: 'fuzz repair',
      performedBy: 'fuzz',
      cost: 12.5,
    }),
  );
  const planId = id(
    await call(token, 'POST', '/devicemanagement/maintenance/plans/create', {
      deviceId: device.id,
      title: 'Fuzz plan',
      intervalDays: 30,
      nextDue: '2026-02-01',
      assigneeId: company.limited.id,
      note: 'n',
    }),
  );
  await call(token, 'POST', '/devicemanagement/maintenance/plans/update', { id: planId, intervalDays: 14 });
  await call(token, 'POST', '/devicemanagement/permission/set', {
    id: device.id,
    mode: 'custom',
    entries: [{ scope: 'company', subjectId: null, level: 2 }],
  });
  await call(token, 'GET', '/devicemanagement/device/list', undefined, {
    keyword: 'fuzz',
    sort: 'name',
    online: false,
  });
  await call(token, 'GET', '/devicemanagement/device/detail', undefined, { id: device.id });
  await call(token, 'GET', '/devicemanagement/device/log', undefined, {
    id: device.id,
    kind: 'edit',
    from: '2020-01-01',
  });
  await call(token, 'GET', '/devicemanagement/maintenance/records', undefined, {
    deviceId: device.id,
    kind: 'repair',
  });
  await call(token, 'GET', '/devicemanagement/maintenance/plans', undefined, {
    deviceId: device.id,
    overdue: true,
  });
  await call(token, 'GET', '/devicemanagement/permission/list', undefined, { keyword: 'fuzz' });
  for (const [key, body] of [
    ['POST /general/devicemanagement/device/bind', { serialNumber: device.sn, name: 'again', parentId: dir }],
    ['POST /general/devicemanagement/device/unbind', { id: device.id }],
    ['POST /general/devicemanagement/maintenance/plans/done', { id: planId, doneOn: '2026-02-01' }],
    ['POST /general/devicemanagement/maintenance/records/update', { id: maintenanceId, cost: null }],
  ] as const)
    corpus.bodies.set(key, [...(corpus.bodies.get(key) ?? []), body]);

  // queries that reach deep: the seeds of the GET routes
  const filters = JSON.stringify([{ field: 'f2', op: 'gt', value: 0 }]);
  await call(token, 'GET', '/smartdata/record/list', undefined, {
    itemId,
    pageNum: 1,
    pageSize: 20,
    sortField: 'f1',
    sortOrder: 'desc',
    from: '2025-01-01T00:00:00Z',
    to: '2026-12-31T00:00:00Z',
    filters,
  });
  await call(token, 'GET', '/smartdata/record/list', undefined, { itemId, parentId: recordId });
  await call(token, 'GET', '/smartdata/template/render', undefined, { id: docNode, itemId, recordId });
  await call(token, 'GET', '/smartdata/analysis/log', undefined, { itemId, jobId });
  await call(token, 'GET', '/smartdata/report/preview', undefined, { id: reportNode });
  await call(token, 'GET', '/smartdata/item/get', undefined, { itemId });
  await call(token, 'GET', '/smartdata/itemgroup/get', undefined, { groupId: itemGroupId });
  await call(token, 'GET', '/smartdata/cabin/permission', undefined, { nodeId: dir });
  await call(token, 'GET', '/company/group/getGroupMembers', undefined, { groupId });
  await call(token, 'GET', '/smartdata/cabin/search', undefined, { keyword: 'Fuzz' });
  await call(token, 'GET', '/user/getSysUserList', undefined, { keyword: 'admin', pageNum: 1 });

  return {
    company,
    itemId,
    keys,
    ids: [
      company.id,
      company.admin.id,
      company.limited.id,
      company.adminRoleId,
      company.ordinaryRoleId,
      dir,
      id(itemNode),
      itemId,
      id(formNode),
      formItemId,
      jumpId,
      recordId,
      childId,
      id(userKey),
      id(deviceKey),
      roleId,
      groupId,
      delegationId,
      jobId,
      reportNode,
      docNode,
      itemGroupId,
      meterItemId,
      packetId,
      device.id,
      device.nodeId,
      maintenanceId,
      planId,
    ],
  };
}

export interface World {
  a: Tenant;
  b: Tenant;
  corpus: Corpus;
}

export async function buildWorld(t: TestApp): Promise<World> {
  const corpus: Corpus = { ids: [], bodies: new Map(), queries: new Map() };
  const companyA = await makeCompany(t, 'Fuzz A');
  const companyB = await makeCompany(t, 'Fuzz B');
  const a = await buildTenant(t, corpus, companyA, companyB);
  const b = await buildTenant(t, corpus, companyB, companyA);
  corpus.ids = [...new Set([...a.ids, ...b.ids])].sort((x, y) => x - y);
  return { a, b, corpus };
}
