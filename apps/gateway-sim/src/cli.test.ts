import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCsv, runCommand } from './cli';
import { type Fleet, startFleet } from './fleet';
import { type LocalBroker, startLocalBroker } from './testing/broker';
import { until } from './testing/harness';

describe('the fleet file as CSV', () => {
  it('reads the sn and secret columns, whatever their place, quotes and a byte-order mark aside', () => {
    const csv =
      '序列号,型号,密钥,ICCID\r\nGW000001,SDG-200,"gws_a,b""c",89860400000000000018\r\n\r\nGW000002,,gws_d,\n';
    expect(parseCsv(csv)).toEqual([
      { sn: 'GW000001', secret: 'gws_a,b"c', model: 'SDG-200', iccid: '89860400000000000018' },
      { sn: 'GW000002', secret: 'gws_d' },
    ]);
    expect(() => parseCsv('name,password\nx,y')).toThrow(/sn and secret/);
  });
});

describe('typed commands', () => {
  let broker: LocalBroker;
  let fleet: Fleet;
  beforeEach(async () => {
    broker = await startLocalBroker();
    fleet = await startFleet({
      url: broker.url,
      count: 2,
      prefix: 'CLI',
      backoff: { minMs: 50, maxMs: 100 },
    });
    await fleet.waitOnline();
  });
  afterEach(async () => {
    await fleet.stop();
    await broker.close();
  });

  it('work on one gateway or on all (*), and explain what they cannot do', async () => {
    expect(await runCommand(fleet, 'list')).toMatch(/^CLI000001 +online .*\nCLI000002 +online/);
    expect(await runCommand(fleet, 'press cli000001')).toBe(
      'CLI000001: {"sent":false,"reason":"no bind request waiting"}',
    );
    expect(await runCommand(fleet, 'slave CLI000001 1 1 garbage')).toBe('CLI000001: true');
    expect(await runCommand(fleet, 'slave CLI000001 1 1 smoke')).toMatch(/^fault:/);
    expect(await runCommand(fleet, 'slave CLI000001 3 1 none')).toBe('CLI000001: "no such slave"');
    expect(await runCommand(fleet, 'fail-upgrade CLI000001 flash')).toMatch(/^reason:/);
    expect(await runCommand(fleet, 'power-loss-upgrade CLI000001 rebooting')).toMatch(/^step:/);
    expect(await runCommand(fleet, 'press NOPE0001')).toBe('no gateway NOPE0001');
    expect(await runCommand(fleet, 'press')).toMatch(/which gateway/);
    expect(await runCommand(fleet, 'dance')).toMatch(/unknown command dance/);
    await runCommand(fleet, 'offline *');
    expect(fleet.stats().online).toBe(0);
    await runCommand(fleet, 'online *');
    await until(() => fleet.stats().online === 2, 'both online again');
    await runCommand(fleet, 'power-off CLI000002 0.1');
    expect(fleet.get('CLI000002')!.state().powered).toBe(false);
    await until(() => fleet.get('CLI000002')!.state().online, 'back after 0.1 s');
    expect(JSON.parse(await runCommand(fleet, 'show CLI000002')).sn).toBe('CLI000002');
  });
});
