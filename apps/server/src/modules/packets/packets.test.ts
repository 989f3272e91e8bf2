/**
 * Packet and parser definitions through the real routes: CRUD, the seed's hex rule with its
 * message, names per company, parsers bound only to fields of IoT items the caller may write,
 * and hostile input. (Tenant cases: route-cases.ts; frames: frames.test.ts.)
 */
import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  makeCompany,
  type TestApp,
  type TestCompany,
  type TestUser,
} from '../../test/helper';
import { makeItem, SAMPLE_FIELDS, setPermissions } from '../cabin/test-support';
import { makeMember, makeRole, postAs } from '../users/test-support';
import { serialPackages } from './tables';
import {
  floatValue,
  IOT_FIELDS,
  makeIotItem,
  makePackage,
  makeParser,
  packageRow,
  parserRow,
} from './test-support';

let t: TestApp;
let a: TestCompany;
/** holds the device communication codes, not administrator */
let engineer: TestUser;

const PACKET = {
  frame: '01 03 00 00 00 02',
  appendCrc: true,
  valueType: 'byte',
  encoding: 'HEX',
  samplingId: 1,
};

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: 'off' });
  a = await makeCompany(t, 'Packets A');
  const role = await makeRole(t, a.id, [
    'cloud_device',
    'cd_data_package',
    'cd_parsing',
    'cd_device',
    'smart_data',
    'sd_capsule',
  ]);
  engineer = await makeMember(t, a, [role], 'engineer');
});

afterAll(async () => {
  await t.close();
});

const get = (token: string, url: string, lang = 'en') =>
  t.app.inject({
    method: 'GET',
    url: `/general${url}`,
    headers: { ...bearer(token), 'accept-language': lang },
  });

async function countPackets(companyId: number): Promise<number> {
  return (await t.db.select().from(serialPackages).where(eq(serialPackages.companyId, companyId))).length;
}

describe('data packages', () => {
  it('creates a packet with the CRC it appends, finds it by name, changes and deletes it', async () => {
    const added = await postAs(t, engineer.token, '/devicecommunication/dataPackage/add', {
      name: '电表 读数',
      ...PACKET,
      frame: '01 03 00 6b 00 03',
    });
    expect(added.json()).toMatchObject({
      code: 0,
      // domain-facts: the right CRC of 01 03 00 6B 00 03 is 74 17
      data: {
        name: '电表 读数',
        frame: '01 03 00 6B 00 03',
        appendCrc: true,
        crc: '74 17',
        parserValues: null,
      },
    });
    const id = added.json().data.id as number;

    const found = await get(
      engineer.token,
      `/devicecommunication/dataPackage/list?keyword=${encodeURIComponent('电表')}`,
    );
    expect(found.json().data).toMatchObject({ total: 1, list: [{ id, samplingId: 1 }] });
    const none = await get(engineer.token, '/devicecommunication/dataPackage/list?keyword=%25');
    expect(none.json().data.total).toBe(0);

    const changed = await postAs(t, engineer.token, '/devicecommunication/dataPackage/update', {
      id,
      name: '电表 读数',
      ...PACKET,
      frame: '02 07',
      encoding: 'ASCII',
      samplingId: 4,
    });
    expect(changed.json()).toMatchObject({
      code: 0,
      data: { frame: '02 07', crc: '41 12', encoding: 'ASCII', samplingId: 4 },
    });
    expect((await get(engineer.token, `/devicecommunication/dataPackage/get?id=${id}`)).json().data.crc).toBe(
      '41 12',
    );

    const deleted = await postAs(t, engineer.token, '/devicecommunication/dataPackage/delete', { id });
    expect(deleted.json().code).toBe(0);
    expect(await packageRow(t, id)).toBeUndefined();
  });

  it('pages the list', async () => {
    const b = await makeCompany(t, 'Packets paging');
    for (let i = 0; i < 12; i++) await makePackage(t, b.id, { name: `p${i}` });
    const page2 = await get(b.admin.token, '/devicecommunication/dataPackage/list?pageNum=2&pageSize=5');
    expect(page2.json().data).toMatchObject({ total: 12, pageNum: 2, pageSize: 5 });
    expect(page2.json().data.list).toHaveLength(5);
  });

  it.each([
    [' 01 03', 'leading space'],
    ['01 03 ', 'trailing space'],
    ['01  03', 'two spaces'],
    ['0103', 'no space'],
    ['01 3', 'one digit'],
    ['01 0X', 'not hex'],
  ])('refuses %j (%s) with the hex rule message, naming the frame', async (frame) => {
    const before = await countPackets(a.id);
    const res = await postAs(t, engineer.token, '/devicecommunication/dataPackage/add', {
      name: 'bad',
      ...PACKET,
      frame,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: ERROR_CODES.VALIDATION,
      message: 'Hex data must be groups of two hex digits separated by single spaces',
      data: { field: 'frame' },
    });
    const zh = await postAs(
      t,
      engineer.token,
      '/devicecommunication/dataPackage/add',
      { name: 'bad', ...PACKET, frame },
      'zh',
    );
    expect(zh.json().message).toBe('十六进制数据须为两位一组、以单个空格分隔的十六进制数字');
    expect(await countPackets(a.id)).toBe(before);
  });

  it.each([
    [{ name: '' }, 'name', 'Please enter a name'],
    [{ name: 'x'.repeat(26) }, 'name', 'The length of the name cannot exceed 25 characters'],
    [{ samplingId: 5 }, 'samplingId', null],
    [{ valueType: 'word' }, 'valueType', null],
    [{ encoding: 'utf8' }, 'encoding', null],
    [
      { frame: Array(255).fill('00').join(' ') },
      'frame',
      'A packet can hold at most 256 bytes, CRC included',
    ],
  ])('refuses %j naming %s', async (patch, field, message) => {
    const res = await postAs(t, engineer.token, '/devicecommunication/dataPackage/add', {
      name: 'ok',
      ...PACKET,
      ...patch,
    });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field } });
    if (message) expect(res.json().message).toBe(message);
  });

  it('refuses hostile input without writing', async () => {
    const before = await countPackets(a.id);
    const bodies = [
      { name: 'n\u0000ul', ...PACKET },
      { name: 'types', ...PACKET, appendCrc: 'yes' },
      { name: 'types', ...PACKET, samplingId: '1' },
      { name: 'huge', ...PACKET, samplingId: 1e12 },
      { name: 'huge', ...PACKET, frame: '00 '.repeat(5000) },
      { name: ['array'], ...PACKET },
    ];
    for (const body of bodies) {
      const res = await postAs(t, engineer.token, '/devicecommunication/dataPackage/add', body);
      expect(res.json().code, JSON.stringify(body).slice(0, 60)).toBe(ERROR_CODES.VALIDATION);
    }
    expect(await countPackets(a.id)).toBe(before);
  });

  it('keeps names unique in a company', async () => {
    await makePackage(t, a.id, { name: '同名' });
    const res = await postAs(t, engineer.token, '/devicecommunication/dataPackage/add', {
      name: '同名',
      ...PACKET,
    });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'name' } });
    expect(res.json().message).toBe('A data package with this name already exists');
  });

  it('refuses to delete a packet a gateway configuration uses (the hook)', async () => {
    const id = await makePackage(t, a.id);
    t.app.packetUses.register(async (_db, companyId, packageId) =>
      companyId === a.id && packageId === id ? 'gateway GW0001 configuration' : null,
    );
    const res = await postAs(t, engineer.token, '/devicecommunication/dataPackage/delete', { id });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.BUSINESS, data: { field: 'id' } });
    expect(res.json().message).toBe(
      'This data package is used by gateway GW0001 configuration: remove it there first',
    );
    expect(await packageRow(t, id)).toBeDefined();
  });

  it("refuses a new frame that would leave a parser's value past the answer's data", async () => {
    const item = await makeIotItem(t, a.id);
    const id = await makePackage(t, a.id);
    await makeParser(t, a.id, id, [floatValue(item.itemId, { name: '功率' })], engineer.id);
    const res = await postAs(t, engineer.token, '/devicecommunication/dataPackage/update', {
      id,
      name: 'one register',
      ...PACKET,
      frame: '01 03 00 00 00 01',
    });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'frame' } });
    expect(res.json().message).toBe('The value "功率" reads past the end of the answer\'s data (2 bytes)');
    expect((await packageRow(t, id))!.frame).toBe('01 03 00 00 00 02');
  });

  it('needs the data package code', async () => {
    const res = await get(a.limited.token, '/devicecommunication/dataPackage/list');
    expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
  });
});

describe('parsers', () => {
  const save = (token: string, body: object, lang = 'en') =>
    postAs(t, token, '/devicecommunication/parsing/save', body, lang);

  it('saves values bound to an IoT item and reads them back with the item', async () => {
    const item = await makeIotItem(t, a.id, '电表一');
    const id = await makePackage(t, a.id);
    const values = [
      floatValue(item.itemId, { decimals: 2 }),
      floatValue(item.itemId, {
        name: '状态位',
        offset: 2,
        length: 2,
        valueType: 'integer',
        format: 'bit',
        bit: 3,
        fieldKey: 'f2',
      }),
    ];
    const res = await save(engineer.token, { dataPkgId: id, values });
    expect(res.json()).toMatchObject({ code: 0 });
    const read = await get(engineer.token, `/devicecommunication/parsing/get?dataPkgId=${id}`);
    expect(read.json().data).toMatchObject({
      package: { id, parserValues: 2 },
      answerLength: null,
      values,
      updatedBy: 'engineer',
      items: [
        { id: item.itemId, name: '电表一', fields: IOT_FIELDS.map((f) => ({ key: f.key, type: f.type })) },
      ],
    });
    expect((await parserRow(t, id))!.updatedBy).toBe(engineer.id);
    const listed = await get(engineer.token, '/devicecommunication/parsing/list?keyword=packet');
    expect(listed.json().data.list.find((p: { id: number }) => p.id === id)).toMatchObject({
      parserValues: 2,
    });
  });

  it('names the value read past the answer of a Modbus read', async () => {
    const item = await makeIotItem(t, a.id);
    const id = await makePackage(t, a.id);
    const res = await save(engineer.token, {
      dataPkgId: id,
      values: [floatValue(item.itemId, { name: '电流', offset: 1 })],
    });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'values[0].offset' } });
    expect(res.json().message).toBe('The value "电流" reads past the end of the answer\'s data (4 bytes)');
    const zh = await save(
      engineer.token,
      { dataPkgId: id, values: [floatValue(item.itemId, { name: '电流', offset: 1 })] },
      'zh',
    );
    expect(zh.json().message).toBe('值“电流”超出了应答数据的末尾（数据共 4 个字节）');
    expect(await parserRow(t, id)).toBeUndefined();
  });

  it('refuses a decimal into an integer field, naming the value and the field', async () => {
    const item = await makeIotItem(t, a.id);
    const id = await makePackage(t, a.id);
    const res = await save(engineer.token, {
      dataPkgId: id,
      values: [floatValue(item.itemId, { name: '温度', fieldKey: 'f2' })],
    });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'values[0].fieldKey' } });
    expect(res.json().message).toBe(
      'The value "温度" cannot be stored in the field "状态": the field\'s type cannot hold it',
    );
  });

  it('refuses an item that is not an IoT data list, and a field the item lacks', async () => {
    const manual = await makeItem(t, a.id, { kind: 10, fields: SAMPLE_FIELDS });
    const iot = await makeIotItem(t, a.id);
    const id = await makePackage(t, a.id);
    const notIot = await save(engineer.token, { dataPkgId: id, values: [floatValue(manual.itemId)] });
    expect(notIot.json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'values[0].itemId' },
    });
    const missing = await save(engineer.token, {
      dataPkgId: id,
      values: [floatValue(iot.itemId, { fieldKey: 'f99' })],
    });
    expect(missing.json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'values[0].fieldKey' },
    });
  });

  it('lets nobody bind a value to an item they may not write', async () => {
    const readOnly = await makeIotItem(t, a.id, '只读电表');
    await setPermissions(t, readOnly.nodeId, [{ scope: 'company', subjectId: null, level: 1 }]);
    const hidden = await makeIotItem(t, a.id, '隐藏电表');
    await setPermissions(t, hidden.nodeId, [{ scope: 'company', subjectId: null, level: 0 }]);
    const id = await makePackage(t, a.id);
    const read = await save(engineer.token, { dataPkgId: id, values: [floatValue(readOnly.itemId)] });
    expect(read.json()).toMatchObject({ code: ERROR_CODES.FORBIDDEN, data: { field: 'values[0].itemId' } });
    expect(read.json().message).toBe('You may not write into the data item of the value "电压"');
    const none = await save(engineer.token, { dataPkgId: id, values: [floatValue(hidden.itemId)] });
    expect(none.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'values[0].itemId' } });
    expect(await parserRow(t, id)).toBeUndefined();
    // the administrator may
    expect(
      (await save(a.admin.token, { dataPkgId: id, values: [floatValue(readOnly.itemId)] })).json().code,
    ).toBe(0);
    // and the picker offers the engineer neither
    const picker = await get(engineer.token, '/devicecommunication/parsing/items');
    const names = picker.json().data.map((i: { name: string }) => i.name);
    expect(names).not.toContain('只读电表');
    expect(names).not.toContain('隐藏电表');
    expect(
      (await get(a.admin.token, '/devicecommunication/parsing/items?keyword=只读')).json().data,
    ).toMatchObject([{ id: readOnly.itemId, level: 3 }]);
  });

  it('offers only IoT data lists in the picker', async () => {
    await makeItem(t, a.id, { kind: 10, name: '手工表', fields: SAMPLE_FIELDS });
    const names = (await get(engineer.token, '/devicecommunication/parsing/items'))
      .json()
      .data.map((i: { name: string }) => i.name);
    expect(names).not.toContain('手工表');
  });

  it('refuses two values in one field and two values of one name', async () => {
    const item = await makeIotItem(t, a.id);
    const id = await makePackage(t, a.id);
    const same = await save(engineer.token, {
      dataPkgId: id,
      values: [floatValue(item.itemId, { name: 'a' }), floatValue(item.itemId, { name: 'b' })],
    });
    expect(same.json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'values[1].fieldKey' },
    });
    const named = await save(engineer.token, {
      dataPkgId: id,
      values: [
        floatValue(item.itemId, { name: 'a' }),
        floatValue(item.itemId, { name: 'a', fieldKey: 'f3', valueType: 'string', format: 'hex' }),
      ],
    });
    expect(named.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'values[1].name' } });
  });

  it('keeps the answer length of raw packets only', async () => {
    const item = await makeIotItem(t, a.id);
    const raw = await makePackage(t, a.id, { frame: '68 AA 16', appendCrc: false });
    const bad = await save(engineer.token, {
      dataPkgId: raw,
      answerLength: 2,
      values: [floatValue(item.itemId)],
    });
    expect(bad.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'values[0].offset' } });
    expect(
      (
        await save(engineer.token, { dataPkgId: raw, answerLength: 8, values: [floatValue(item.itemId)] })
      ).json().code,
    ).toBe(0);
    expect((await parserRow(t, raw))!.answerLength).toBe(8);
    const modbus = await makePackage(t, a.id);
    expect(
      (
        await save(engineer.token, { dataPkgId: modbus, answerLength: 99, values: [floatValue(item.itemId)] })
      ).json().code,
    ).toBe(0);
    expect((await parserRow(t, modbus))!.answerLength).toBeNull();
    const huge = await save(engineer.token, { dataPkgId: raw, answerLength: 1e9, values: [] });
    expect(huge.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'answerLength' } });
  });

  it('refuses hostile values naming them', async () => {
    const item = await makeIotItem(t, a.id);
    const id = await makePackage(t, a.id);
    const cases: Array<[object, string]> = [
      [{ offset: 1e308 }, 'values[0].offset'],
      [{ offset: -1 }, 'values[0].offset'],
      [{ length: 0.5 }, 'values[0].length'],
      [{ scale: 1e300 }, 'values[0].scale'],
      [{ format: '__proto__' }, 'values[0].format'],
      [{ valueType: 'constructor' }, 'values[0].valueType'],
      [{ order: 'ZYXW' }, 'values[0].order'],
      [{ itemId: 2 ** 31 }, 'values[0].itemId'],
      [{ itemId: 1.5 }, 'values[0].itemId'],
      [{ decimals: 99 }, 'values[0].decimals'],
      [{ name: 'x'.repeat(30) }, 'values[0].name'],
    ];
    for (const [patch, field] of cases) {
      const res = await save(engineer.token, {
        dataPkgId: id,
        values: [{ ...floatValue(item.itemId), ...patch }],
      });
      expect(res.json(), JSON.stringify(patch)).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field },
      });
    }
    const tooMany = await save(engineer.token, {
      dataPkgId: id,
      values: Array.from({ length: 201 }, (_, i) => floatValue(item.itemId, { name: `v${i}` })),
    });
    expect(tooMany.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'values' } });
    const wrongTypes = await save(engineer.token, {
      dataPkgId: id,
      values: [{ ...floatValue(item.itemId), offset: '0' }],
    });
    expect(wrongTypes.json().code).toBe(ERROR_CODES.VALIDATION);
    expect(await parserRow(t, id)).toBeUndefined();
  });

  it("cannot save a parser on another company's packet", async () => {
    const b = await makeCompany(t, 'Parsers B');
    const item = await makeIotItem(t, b.id);
    const id = await makePackage(t, a.id);
    const res = await save(b.admin.token, { dataPkgId: id, values: [floatValue(item.itemId)] });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'dataPkgId' } });
    expect(await parserRow(t, id)).toBeUndefined();
  });

  it('goes with its packet', async () => {
    const item = await makeIotItem(t, a.id);
    const id = await makePackage(t, a.id);
    await makeParser(t, a.id, id, [floatValue(item.itemId)], engineer.id);
    expect(
      (await postAs(t, engineer.token, '/devicecommunication/dataPackage/delete', { id })).json().code,
    ).toBe(0);
    expect(await parserRow(t, id)).toBeUndefined();
  });
});
