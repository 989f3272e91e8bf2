import type { GatewayConfig } from '@platform/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultPorts, pollingConfig } from './layouts';
import { type Harness, startHarness, until } from './testing/harness';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

/** A push of `config` (a polling configuration of the default ports unless given). */
const push = (version: number, confirmWithin: number, config?: GatewayConfig) => {
  const made = pollingConfig(defaultPorts(), { intervalS: 0.2, version });
  const body = config ?? made.config;
  return { version, hash: config ? `${made.hash.slice(0, 60)}beef` : made.hash, confirmWithin, config: body };
};

describe('configuration: applied, committed, rejected, unchanged, rolled back', () => {
  it('applies a configuration, keeps it when the commit comes, and answers unchanged to the same hash', async () => {
    const gw = h.gateway({ sn: 'GWCFG001' });
    await h.platform.waitFor('GWCFG001', 'status', (m) => m.online === true);
    const v3 = push(3, 30);
    await h.platform.send('GWCFG001', 'config', v3);
    expect(await h.platform.waitFor('GWCFG001', 'config')).toEqual({
      version: 3,
      hash: v3.hash,
      result: 'applied',
    });
    await h.platform.waitFor('GWCFG001', 'status', (m) => m.configVersion === 3 && m.configHash === v3.hash);
    expect(gw.state().pendingConfig).toMatchObject({ version: 3, hash: v3.hash });
    // it runs it already: frames come
    await h.platform.waitFor('GWCFG001', 'frame');

    await h.platform.send('GWCFG001', 'config/commit', { version: 3, hash: v3.hash });
    await until(() => gw.state().pendingConfig === null, 'committed');
    expect(gw.state().config).toEqual({ version: 3, hash: v3.hash });

    const mark = h.platform.mark();
    await h.platform.send('GWCFG001', 'config', v3);
    expect(await h.platform.waitFor('GWCFG001', 'config', () => true, { since: mark })).toEqual({
      version: 3,
      hash: v3.hash,
      result: 'unchanged',
    });

    // committed: it survives a power cut
    const cut = h.platform.mark();
    await gw.powerCut();
    gw.powerOn();
    const birth = await h.platform.waitFor('GWCFG001', 'status', (m) => m.online === true, { since: cut });
    expect(birth).toMatchObject({ configVersion: 3, configHash: v3.hash });
    expect(h.platform.of('GWCFG001', 'config', cut)).toEqual([]);
  });

  it('rejects what it cannot run, naming node and field, and changes nothing', async () => {
    const gw = h.gateway({ sn: 'GWCFG002' });
    await h.platform.waitFor('GWCFG002', 'status', (m) => m.online === true);
    const bad = push(4, 30);
    const com = bad.config.nodes.find((n) => n.id === 'com1')!;
    (com.settings as { port: number; baudRate: number }).port = 5;
    (com.settings as { port: number; baudRate: number }).baudRate = 12345;
    await h.platform.send('GWCFG002', 'config', bad);
    const answer = await h.platform.waitFor('GWCFG002', 'config');
    expect(answer).toMatchObject({ version: 4, hash: bad.hash, result: 'rejected' });
    expect(answer.errors).toEqual([
      { node: 'com1', field: 'port', message: 'port 5 does not exist on this gateway (ports: 1, 2)' },
      { node: 'com1', field: 'baudRate', message: expect.stringContaining('baud rate must be one of') },
    ]);
    expect(gw.state().config).toBeNull();
    expect(gw.state().pendingConfig).toBeNull();
  });

  it('rejects the next configuration when told to, then applies the one after', async () => {
    const gw = h.gateway({ sn: 'GWCFG003' });
    await h.platform.waitFor('GWCFG003', 'status', (m) => m.online === true);
    gw.rejectNextConfig('no memory left');
    const v5 = push(5, 30);
    await h.platform.send('GWCFG003', 'config', v5);
    expect(await h.platform.waitFor('GWCFG003', 'config')).toEqual({
      version: 5,
      hash: v5.hash,
      result: 'rejected',
      errors: [{ node: '', field: 'config', message: 'no memory left' }],
    });
    const mark = h.platform.mark();
    await h.platform.send('GWCFG003', 'config', v5);
    expect(await h.platform.waitFor('GWCFG003', 'config', () => true, { since: mark })).toMatchObject({
      result: 'applied',
    });
  });

  it('goes back to the previous configuration by itself when the commit never comes', async () => {
    const gw = h.gateway({ sn: 'GWCFG004' });
    await h.platform.waitFor('GWCFG004', 'status', (m) => m.online === true);
    const v1 = pollingConfig(defaultPorts(), { intervalS: 0.2, version: 1 });
    await h.platform.send('GWCFG004', 'config', { ...v1, confirmWithin: 30 });
    await h.platform.waitFor('GWCFG004', 'config', (m) => m.result === 'applied');
    await h.platform.send('GWCFG004', 'config/commit', { version: 1, hash: v1.hash });
    await until(() => gw.state().pendingConfig === null, 'v1 committed');

    const v2 = pollingConfig(defaultPorts(), { intervalS: 0.3, slaves: 1, version: 2 });
    const mark = h.platform.mark();
    await h.platform.send('GWCFG004', 'config', { ...v2, confirmWithin: 0.3 });
    await h.platform.waitFor('GWCFG004', 'config', (m) => m.result === 'applied', { since: mark });
    const report = await h.platform.waitFor('GWCFG004', 'config', (m) => m.result === 'rolledBack', {
      since: mark,
    });
    expect(report).toEqual({ version: 2, hash: v2.hash, result: 'rolledBack', runningVersion: 1 });
    await h.platform.waitFor('GWCFG004', 'status', (m) => m.configVersion === 1 && m.configHash === v1.hash, {
      since: mark,
    });
    expect(gw.state().config).toEqual({ version: 1, hash: v1.hash });
    // a commit arriving after the rollback changes nothing
    await h.platform.send('GWCFG004', 'config/commit', { version: 2, hash: v2.hash });
    await h.platform.send('GWCFG004', 'passthrough', {
      session: 'sync',
      port: 1,
      data: '01 03 00 00 00 02 C4 0B',
    });
    await h.platform.waitFor('GWCFG004', 'passthrough', (m) => m.session === 'sync');
    expect(gw.state().config).toEqual({ version: 1, hash: v1.hash });
  });

  it('rolls back without a running version when it had none before', async () => {
    h.gateway({ sn: 'GWCFG005' });
    await h.platform.waitFor('GWCFG005', 'status', (m) => m.online === true);
    const v1 = push(1, 0.2);
    await h.platform.send('GWCFG005', 'config', v1);
    expect(await h.platform.waitFor('GWCFG005', 'config', (m) => m.result === 'rolledBack')).toEqual({
      version: 1,
      hash: v1.hash,
      result: 'rolledBack',
    });
  });

  it('applies, loses the network, rolls back on its own and reports it once connected again', async () => {
    const gw = h.gateway({ sn: 'GWCFG006' });
    await h.platform.waitFor('GWCFG006', 'status', (m) => m.online === true);
    gw.loseNetworkAfterNextConfig();
    const v7 = push(7, 0.5);
    const mark = h.platform.mark();
    await h.platform.send('GWCFG006', 'config', v7);
    await h.platform.waitFor('GWCFG006', 'config', (m) => m.result === 'applied', { since: mark });
    // gone without a goodbye: the will
    await h.platform.waitFor('GWCFG006', 'status', (m) => m.online === false, { since: mark });
    const birth = await h.platform.waitFor('GWCFG006', 'status', (m) => m.online === true, { since: mark });
    expect(birth.configVersion).toBeUndefined();
    const report = await h.platform.waitFor('GWCFG006', 'config', (m) => m.result === 'rolledBack', {
      since: mark,
    });
    expect(report).toEqual({ version: 7, hash: v7.hash, result: 'rolledBack' });
    // the report came after the birth
    const all = h.platform.messages.filter((m) => m.sn === 'GWCFG006' && m.seq >= mark);
    const birthAt = all.find((m) => m.sub === 'status' && m.message.online === true)!.seq;
    const reportAt = all.find((m) => m.sub === 'config' && m.message.result === 'rolledBack')!.seq;
    expect(reportAt).toBeGreaterThan(birthAt);
    expect(gw.state().linkUp).toBe(true);
  });

  it('cut off by a configuration and then without power: back with the previous one and online', async () => {
    const gw = h.gateway({ sn: 'GWCFG009' });
    await h.platform.waitFor('GWCFG009', 'status', (m) => m.online === true);
    gw.loseNetworkAfterNextConfig();
    const v3 = push(3, 60);
    const mark = h.platform.mark();
    await h.platform.send('GWCFG009', 'config', v3);
    await h.platform.waitFor('GWCFG009', 'config', (m) => m.result === 'applied', { since: mark });
    await until(() => !gw.state().linkUp, 'cut off');
    await gw.powerCut(20);
    await h.platform.waitFor('GWCFG009', 'config', (m) => m.result === 'rolledBack', { since: mark });
    expect(gw.state()).toMatchObject({ linkUp: true, online: true, config: null });
  });

  it('loses a configuration not yet committed when the power goes', async () => {
    const gw = h.gateway({ sn: 'GWCFG007' });
    await h.platform.waitFor('GWCFG007', 'status', (m) => m.online === true);
    const v2 = push(2, 60);
    await h.platform.send('GWCFG007', 'config', v2);
    await h.platform.waitFor('GWCFG007', 'config', (m) => m.result === 'applied');
    const mark = h.platform.mark();
    await gw.powerCut(50);
    const report = await h.platform.waitFor('GWCFG007', 'config', (m) => m.result === 'rolledBack', {
      since: mark,
    });
    expect(report).toEqual({ version: 2, hash: v2.hash, result: 'rolledBack' });
    expect(gw.state().config).toBeNull();
  });

  it('answers a push delivered twice as applied both times, restarting nothing', async () => {
    const gw = h.gateway({ sn: 'GWCFG008' });
    await h.platform.waitFor('GWCFG008', 'status', (m) => m.online === true);
    const v9 = push(9, 30);
    await h.platform.send('GWCFG008', 'config', v9);
    await h.platform.send('GWCFG008', 'config', v9);
    await until(() => h.platform.of('GWCFG008', 'config').length === 2, 'two answers');
    expect(h.platform.of('GWCFG008', 'config').map((m) => m.result)).toEqual(['applied', 'applied']);
    // the status announcing the new configuration came once
    expect(h.platform.of('GWCFG008', 'status').filter((m) => m.configVersion === 9)).toHaveLength(1);
    expect(gw.state().pendingConfig?.version).toBe(9);
  });
});
