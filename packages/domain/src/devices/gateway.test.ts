import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyIdOfMqttUsername, keyMqttUsername, submissionAcl } from '../mqtt/submission';
import { isTopicLevel, mayPublish, maySubscribe } from '../mqtt/topics';
import {
  checkSerialNumber,
  GATEWAY_DOWN_FILTER,
  GATEWAY_DOWN_KINDS,
  GATEWAY_UP_FILTER,
  GATEWAY_UP_KINDS,
  gatewayAcl,
  gatewayDownTopic,
  gatewayUpTopic,
  isGatewaySecretShape,
  isSerialNumber,
  normalizeSerialNumber,
  parseGatewayTopic,
} from './gateway';

describe('serial numbers', () => {
  it('are 6 to 32 characters A-Z and 0-9', () => {
    for (const good of ['SDG200', 'A1B2C3D4E5', '000000', 'Z'.repeat(32), 'SDG2000001'])
      expect(isSerialNumber(good), good).toBe(true);
    for (const bad of [
      '',
      'ABCDE',
      'Z'.repeat(33),
      'sdg200',
      'SDG-200',
      'SDG 200',
      'SDG200\n',
      'ÄBCDEF',
      '+ABCDE',
      'ABC/EF',
      'ABCDE#',
    ])
      expect(isSerialNumber(bad), JSON.stringify(bad)).toBe(false);
    expect(isSerialNumber(123456)).toBe(false);
    expect(isSerialNumber(null)).toBe(false);
  });

  it('typed in lower case or with spaces around are taken as upper case', () => {
    expect(normalizeSerialNumber(' sdg2000001 ')).toBe('SDG2000001');
    expect(normalizeSerialNumber('Sdg2000001')).toBe('SDG2000001');
    expect(normalizeSerialNumber('sdg 2000001')).toBeNull();
    expect(normalizeSerialNumber('sdg-200001')).toBeNull();
    expect(normalizeSerialNumber(undefined)).toBeNull();
    expect(checkSerialNumber('abc')).toBe('serialNumberInvalid');
    expect(checkSerialNumber('abcdef')).toBeNull();
  });

  it('are always a single topic level', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z0-9]{6,32}$/), (sn) => {
        expect(isTopicLevel(sn)).toBe(true);
      }),
    );
  });
});

describe('gateway secrets', () => {
  it('are gws_ and 43 base64url characters', () => {
    const good = `gws_${'A'.repeat(20)}-_${'9'.repeat(21)}`;
    expect(good).toHaveLength(47);
    expect(isGatewaySecretShape(good)).toBe(true);
    for (const bad of [
      good.slice(0, -1),
      `${good}x`,
      good.replace('gws_', 'sdk_'),
      `gws_${'+'.repeat(43)}`,
      '',
    ])
      expect(isGatewaySecretShape(bad), bad).toBe(false);
  });
});

describe('gateway topics', () => {
  it('build and parse every up and down kind', () => {
    for (const kind of GATEWAY_UP_KINDS) {
      const topic = gatewayUpTopic('SDG2000001', kind);
      expect(topic).toBe(`smartdata/gw/SDG2000001/up/${kind}`);
      expect(parseGatewayTopic(topic)).toEqual({ sn: 'SDG2000001', direction: 'up', kind });
    }
    for (const kind of GATEWAY_DOWN_KINDS) {
      const topic = gatewayDownTopic('SDG2000001', kind);
      expect(topic).toBe(`smartdata/gw/SDG2000001/down/${kind}`);
      expect(parseGatewayTopic(topic)).toEqual({ sn: 'SDG2000001', direction: 'down', kind });
    }
    expect(gatewayDownTopic('SDG2000001', 'config/commit')).toBe(
      'smartdata/gw/SDG2000001/down/config/commit',
    );
  });

  it('refuse what is not a gateway topic of the protocol', () => {
    for (const bad of [
      'smartdata/gw/SDG2000001/up',
      'smartdata/gw/SDG2000001/up/',
      'smartdata/gw/SDG2000001/up/unknown',
      'smartdata/gw/SDG2000001/up/status/x',
      'smartdata/gw/SDG2000001/up/config/commit',
      'smartdata/gw/SDG2000001/down/status',
      'smartdata/gw/SDG2000001/sideways/status',
      'smartdata/gw/sdg2000001/up/status',
      'smartdata/gw/+/up/status',
      'smartdata/gw/ABC/up/status',
      'smartdata/submit/key-1',
      'smartdata/gw',
      '',
      `smartdata/gw/${'A'.repeat(32)}/up/${'x'.repeat(200)}`,
    ])
      expect(parseGatewayTopic(bad), bad).toBeNull();
  });

  it('the platform subscribes to every up topic and publishes to every down topic', () => {
    expect(GATEWAY_UP_FILTER).toBe('smartdata/gw/+/up/#');
    expect(GATEWAY_DOWN_FILTER).toBe('smartdata/gw/+/down/#');
  });
});

describe("a gateway's ACL", () => {
  const acl = gatewayAcl('SDG2000001');

  it('publishes under its own up topics only', () => {
    for (const kind of GATEWAY_UP_KINDS)
      expect(mayPublish(acl, gatewayUpTopic('SDG2000001', kind))).toBe(true);
    for (const topic of [
      'smartdata/gw/SDG2000002/up/status',
      'smartdata/gw/SDG20000011/up/status',
      'smartdata/gw/SDG200000/up/status',
      'smartdata/gw/SDG2000001/down/bind',
      'smartdata/gw/SDG2000001/down/config/commit',
      'smartdata/submit/key-1',
      'smartdata/result/key-1',
      '$SYS/broker/uptime',
      'smartdata/gw/+/up/status',
    ])
      expect(mayPublish(acl, topic), topic).toBe(false);
  });

  it('subscribes to its own down topics, and to no filter that could reach another gateway or a key', () => {
    expect(maySubscribe(acl, 'smartdata/gw/SDG2000001/down/#')).toBe(true);
    expect(maySubscribe(acl, 'smartdata/gw/SDG2000001/down/bind')).toBe(true);
    expect(maySubscribe(acl, 'smartdata/gw/SDG2000001/down/+')).toBe(true);
    for (const filter of [
      'smartdata/gw/+/down/#',
      'smartdata/gw/+/down/bind',
      'smartdata/gw/SDG2000002/down/#',
      'smartdata/gw/SDG2000001/up/#',
      'smartdata/gw/SDG2000001/#',
      'smartdata/gw/#',
      'smartdata/+/SDG2000001/down/#',
      'smartdata/#',
      'smartdata/result/+',
      'smartdata/submit/+',
      '#',
      '+/+/+/+/+',
      '$SYS/#',
      '$share/g/smartdata/gw/SDG2000001/down/#',
    ])
      expect(maySubscribe(acl, filter), filter).toBe(false);
  });

  it('reaches nothing of another gateway, whatever the two serial numbers', () => {
    const sn = fc.stringMatching(/^[A-Z0-9]{6,12}$/);
    const kinds = fc.constantFrom(...GATEWAY_UP_KINDS);
    const downKinds = fc.constantFrom(...GATEWAY_DOWN_KINDS);
    fc.assert(
      fc.property(sn, sn, kinds, downKinds, (own, other, up, down) => {
        fc.pre(own !== other);
        const mine = gatewayAcl(own);
        expect(mayPublish(mine, gatewayUpTopic(other, up))).toBe(false);
        expect(maySubscribe(mine, gatewayDownTopic(other, down))).toBe(false);
        expect(maySubscribe(mine, `smartdata/gw/${other}/down/#`)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("reaches nothing of a submission key's topics, and a key reaches nothing of a gateway's", () => {
    const id = fc.integer({ min: 1, max: 2 ** 31 - 1 });
    const sn = fc.stringMatching(/^[A-Z0-9]{6,32}$/);
    fc.assert(
      fc.property(id, sn, (keyId, serial) => {
        const username = keyMqttUsername(keyId);
        const key = submissionAcl(username);
        const gateway = gatewayAcl(serial);
        for (const t of key.publish) expect(mayPublish(gateway, t)).toBe(false);
        for (const t of key.subscribe) expect(maySubscribe(gateway, t)).toBe(false);
        for (const kind of GATEWAY_UP_KINDS)
          expect(mayPublish(key, gatewayUpTopic(serial, kind))).toBe(false);
        for (const kind of GATEWAY_DOWN_KINDS)
          expect(maySubscribe(key, gatewayDownTopic(serial, kind))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("never takes a key's username for a serial number or a serial number for a key's", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^(key-[0-9]{1,10}|[A-Z0-9]{6,32})$/)), (text) => {
        expect(isSerialNumber(text) && keyIdOfMqttUsername(text) !== null).toBe(false);
      }),
      { numRuns: 2000 },
    );
    for (let id = 1; id < 2000; id += 37) expect(isSerialNumber(keyMqttUsername(id))).toBe(false);
    expect(isSerialNumber('KEY123')).toBe(true);
    expect(keyIdOfMqttUsername('KEY123')).toBeNull();
    expect(normalizeSerialNumber('key-12')).toBeNull();
    expect(isSerialNumber('smartdata-server')).toBe(false);
  });
});
