import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('the variables of gateways and devices', () => {
  it('MQTT_CONNECT_FAIL_LIMIT: 30 failed CONNECTs a minute per address by default, 0 is off, nonsense is refused', () => {
    expect(loadConfig({}).mqttConnectFailLimit).toBe(30);
    expect(loadConfig({ MQTT_CONNECT_FAIL_LIMIT: '0' }).mqttConnectFailLimit).toBe(0);
    expect(loadConfig({ MQTT_CONNECT_FAIL_LIMIT: '5' }).mqttConnectFailLimit).toBe(5);
    expect(() => loadConfig({ MQTT_CONNECT_FAIL_LIMIT: 'lots' })).toThrow(/MQTT_CONNECT_FAIL_LIMIT/);
  });

  it('BIND_REQUEST_TTL_S: the protocol’s 120 s unless set', () => {
    expect(loadConfig({}).bindRequestTtlS).toBe(120);
    expect(loadConfig({ BIND_REQUEST_TTL_S: '2' }).bindRequestTtlS).toBe(2);
    expect(loadConfig({ BIND_REQUEST_TTL_S: '0' }).bindRequestTtlS).toBe(120);
    expect(() => loadConfig({ BIND_REQUEST_TTL_S: '-1' })).toThrow(/BIND_REQUEST_TTL_S/);
  });

  it('DEMO_GATEWAYS: on in the embedded default, off with PostgreSQL, as set otherwise', () => {
    expect(loadConfig({}).demoGateways).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://x@y/z' }).demoGateways).toBe(false);
    expect(loadConfig({ DEMO_GATEWAYS: 'off' }).demoGateways).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://x@y/z', DEMO_GATEWAYS: 'on' }).demoGateways).toBe(true);
  });
});

describe('PGLITE_SETTINGS', () => {
  it('is unset by default (platform/db.ts keeps its memory-bounding settings), a list of name=value when set', () => {
    expect(loadConfig({}).pgliteSettings).toBeUndefined();
    expect(loadConfig({ PGLITE_SETTINGS: 'shared_buffers=64MB, work_mem=2MB' }).pgliteSettings).toEqual([
      'shared_buffers=64MB',
      'work_mem=2MB',
    ]);
    // empty: PGlite's own defaults
    expect(loadConfig({ PGLITE_SETTINGS: '' }).pgliteSettings).toEqual([]);
  });

  it('refuses anything that is not name=value, naming the variable (nothing reaches the command line)', () => {
    for (const bad of [
      'shared_buffers',
      'shared_buffers=1MB -c fsync=on',
      "work_mem='1MB'",
      '=1MB',
      'a=b;c',
    ]) {
      expect(() => loadConfig({ PGLITE_SETTINGS: bad }), bad).toThrow(/PGLITE_SETTINGS/);
    }
  });
});

describe('DATA_UPDATE_MINUTE_MS', () => {
  it('a minute is 60 s unless a test shortens it; outside tests it is refused, not ignored', () => {
    expect(loadConfig({}).dataUpdateMinuteMs).toBe(60_000);
    expect(loadConfig({ NODE_ENV: 'test', DATA_UPDATE_MINUTE_MS: '100' }).dataUpdateMinuteMs).toBe(100);
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_UPDATE_MINUTE_MS: '100' })).toThrow(
      'DATA_UPDATE_MINUTE_MS is for tests only',
    );
    expect(() => loadConfig({ NODE_ENV: 'test', DATA_UPDATE_MINUTE_MS: '0' })).toThrow('at least 1');
  });
});
