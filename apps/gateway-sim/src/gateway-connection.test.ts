import type { Client, ConnectPacket } from 'aedes';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, until } from './testing/harness';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

describe('identity, birth and last will', () => {
  it('connects as the protocol says and publishes its birth message', async () => {
    const connects: ConnectPacket[] = [];
    h.broker.broker.preConnect = (
      _client: Client,
      packet: ConnectPacket,
      done: (e: Error | null, ok: boolean) => void,
    ) => {
      connects.push(packet);
      done(null, true);
    };
    h.gateway(
      {
        sn: 'GWBIRTH01',
        secret: 'gws_s3cret',
        model: 'SDG-300',
        firmware: '1.2.0',
        iccid: '89860412345678901234',
      },
      { keepalive: 30 },
    );
    const birth = await h.platform.waitFor('GWBIRTH01', 'status', (m) => m.online === true);
    expect(birth).toEqual({
      online: true,
      model: 'SDG-300',
      firmware: '1.2.0',
      iccid: '89860412345678901234',
      ports: [
        { port: 1, ok: true },
        { port: 2, ok: true },
      ],
    });
    const connect = connects[0]!;
    expect(connect.clientId).toBe('GWBIRTH01');
    expect(connect.username).toBe('GWBIRTH01');
    expect(connect.password?.toString()).toBe('gws_s3cret');
    expect(connect.keepalive).toBe(30);
    expect(connect.clean).toBe(true);
    expect(connect.will?.topic).toBe('smartdata/gw/GWBIRTH01/up/status');
    expect(connect.will?.payload.toString()).toBe('{"online":false}');
    expect(connect.will?.qos).toBe(1);
    expect(connect.will?.retain).toBe(false);
  });

  it('takes a serial number typed in lower case as upper case', async () => {
    const gw = h.gateway({ sn: 'gwlower1' });
    expect(gw.sn).toBe('GWLOWER1');
    await h.platform.waitFor('GWLOWER1', 'status', (m) => m.online === true);
  });

  it('a killed socket brings the will; a polite goodbye brings one offline message and no will', async () => {
    const gw = h.gateway({ sn: 'GWWILL01' });
    await h.platform.waitFor('GWWILL01', 'status', (m) => m.online === true);
    const beforeKill = h.platform.mark();
    await gw.goOffline('kill');
    // the gateway said nothing: this is the broker delivering the will
    await h.platform.waitFor('GWWILL01', 'status', (m) => m.online === false, { since: beforeKill });
    expect(gw.state().online).toBe(false);
    expect(gw.state().powered).toBe(true);

    const beforeReturn = h.platform.mark();
    gw.comeOnline();
    await h.platform.waitFor('GWWILL01', 'status', (m) => m.online === true, { since: beforeReturn });

    const beforeGoodbye = h.platform.mark();
    await gw.goOffline('polite');
    gw.comeOnline();
    await h.platform.waitFor('GWWILL01', 'status', (m) => m.online === true, { since: beforeGoodbye });
    const offline = h.platform.of('GWWILL01', 'status', beforeGoodbye).filter((m) => m.online === false);
    expect(offline).toHaveLength(1);
  });

  it('a silent drop leaves the socket hanging: the broker’s keep-alive ends it, then the will', async () => {
    const timedOut: string[] = [];
    h.broker.broker.on('keepaliveTimeout', (client) => timedOut.push(client.id));
    const gw = h.gateway({ sn: 'GWSILENT' }, { keepalive: 1 });
    await h.platform.waitFor('GWSILENT', 'status', (m) => m.online === true);
    const mark = h.platform.mark();
    await gw.goOffline('silent');
    expect(gw.state().online).toBe(false);
    await h.platform.waitFor('GWSILENT', 'status', (m) => m.online === false, { since: mark });
    // the broker found it gone by its keep-alive, not by a closed socket
    expect(timedOut).toEqual(['GWSILENT']);
    gw.comeOnline();
    await h.platform.waitFor('GWSILENT', 'status', (m) => m.online === true, { since: mark });
  });

  it('a silent power cut and a quick return: the will of the old connection comes before the new birth', async () => {
    const gw = h.gateway({ sn: 'GWSILENT2' }, { keepalive: 30 });
    await h.platform.waitFor('GWSILENT2', 'status', (m) => m.online === true);
    const mark = h.platform.mark();
    await gw.powerCut(undefined, 'silent');
    gw.powerOn();
    await h.platform.waitFor('GWSILENT2', 'status', (m) => m.online === true, { since: mark });
    // the broker hands the client id to the new connection and closes the hanging one
    expect(h.platform.of('GWSILENT2', 'status', mark).map((m) => m.online)).toEqual([false, true]);
  });

  it('reconnects with backoff when the broker drops it, and when the broker comes back', async () => {
    const gw = h.gateway({ sn: 'GWRECON1' });
    await h.platform.waitFor('GWRECON1', 'status', (m) => m.online === true);
    const mark = h.platform.mark();
    // the broker closes the connection (as a server restart would)
    expect(h.broker.kick('GWRECON1')).toBe(true);
    await h.platform.waitFor('GWRECON1', 'status', (m) => m.online === true, { since: mark });
    expect(gw.state().counters.connects).toBeGreaterThanOrEqual(2);
  });

  it('keeps trying a broker that is not there, with growing waits, and connects once it is', async () => {
    const { startLocalBroker } = await import('./testing/broker');
    const later = await startLocalBroker();
    const port = later.port;
    await later.close();
    const gw = h.gateway(
      { sn: 'GWLATE01' },
      { url: `mqtt://127.0.0.1:${port}`, backoff: { minMs: 20, maxMs: 100 } },
    );
    await until(() => gw.state().counters.connectFailures >= 3, 'three failed connects');
    const back = await startLocalBroker({ port });
    try {
      await until(() => gw.state().online, 'online once the broker is up');
    } finally {
      await gw.stop();
      await back.close();
    }
  });
});

describe('binding: the button on the box', () => {
  it('blinks on a bind request, sends the request id when the button is pressed, stops on the outcome', async () => {
    const gw = h.gateway({ sn: 'GWBIND01' });
    await h.platform.waitFor('GWBIND01', 'status', (m) => m.online === true);
    // a press with nothing waiting is ignored
    expect(gw.pressBindButton()).toEqual({ sent: false, reason: 'no bind request waiting' });

    const expiresAt = new Date(Date.now() + 120_000).toISOString();
    await h.platform.send('GWBIND01', 'bind', { requestId: 'b1f0', company: '演示公司', expiresAt });
    await until(() => gw.state().blinking !== null, 'blinking');
    expect(gw.state().blinking).toEqual({ requestId: 'b1f0', company: '演示公司', expiresAt });

    const mark = h.platform.mark();
    expect(gw.pressBindButton()).toEqual({ sent: true, requestId: 'b1f0' });
    expect(await h.platform.waitFor('GWBIND01', 'bind', () => true, { since: mark })).toEqual({
      requestId: 'b1f0',
    });
    await h.platform.waitFor('GWBIND01', 'event', (m) => m.event === 'button', { since: mark });
    // the press without a request sent no up/bind
    expect(h.platform.of('GWBIND01', 'bind')).toHaveLength(1);

    await h.platform.send('GWBIND01', 'bind', { requestId: 'b1f0', result: 'bound' });
    await until(() => gw.state().blinking === null, 'blinking stops');
    expect(gw.state().bound).toBe(true);

    await h.platform.send('GWBIND01', 'bind', { result: 'unbound' });
    await until(() => gw.state().bound === false, 'unbound');
  });

  it('stops blinking by itself when the request expires, and ignores one already expired', async () => {
    const gw = h.gateway({ sn: 'GWBIND02' });
    await h.platform.waitFor('GWBIND02', 'status', (m) => m.online === true);
    await h.platform.send('GWBIND02', 'bind', {
      requestId: 'old',
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    await h.platform.send('GWBIND02', 'bind', { requestId: 'short', expiresAt: Date.now() + 300 });
    await until(() => gw.state().blinking?.requestId === 'short', 'blinking for the short request');
    await until(() => gw.state().blinking === null, 'the light goes out at expiresAt');
    expect(gw.pressBindButton().sent).toBe(false);
    // an outcome for another request leaves a waiting one alone
    await h.platform.send('GWBIND02', 'bind', { requestId: 'r2', expiresAt: Date.now() + 60_000 });
    await until(() => gw.state().blinking?.requestId === 'r2', 'blinking for r2');
    await h.platform.send('GWBIND02', 'bind', { requestId: 'other', result: 'cancelled' });
    await h.platform.send('GWBIND02', 'bind', { requestId: 'r2', result: 'expired' });
    await until(() => gw.state().blinking === null, 'r2 ends');
    expect(gw.state().bound).toBe(null);
  });

  it('forgets a bind request when the power goes', async () => {
    const gw = h.gateway({ sn: 'GWBIND03' });
    await h.platform.waitFor('GWBIND03', 'status', (m) => m.online === true);
    await h.platform.send('GWBIND03', 'bind', { requestId: 'r', expiresAt: Date.now() + 60_000 });
    await until(() => gw.state().blinking !== null, 'blinking');
    await gw.powerCut();
    expect(gw.state().blinking).toBeNull();
    expect(gw.pressBindButton()).toEqual({ sent: false, reason: 'the power is off' });
    const mark = h.platform.mark();
    gw.powerOn();
    await h.platform.waitFor('GWBIND03', 'status', (m) => m.online === true, { since: mark });
    await h.platform.waitFor(
      'GWBIND03',
      'event',
      (m) => m.event === 'reboot' && m.detail === 'power restored',
      { since: mark },
    );
    expect(gw.pressBindButton().sent).toBe(false);
  });
});

describe('other events and commands', () => {
  it('reports a new SIM card in status and as an event', async () => {
    const gw = h.gateway({ sn: 'GWSIM001', iccid: '89860400000000000001' });
    await h.platform.waitFor('GWSIM001', 'status', (m) => m.online === true);
    const iccid = gw.swapSim();
    expect(iccid).toMatch(/^8986\d{16}$/);
    await h.platform.waitFor('GWSIM001', 'status', (m) => m.iccid === iccid);
    await h.platform.waitFor(
      'GWSIM001',
      'event',
      (m) => m.event === 'simChanged' && m.detail === `89860400000000000001 → ${iccid}`,
    );
  });

  it('reboots on command: goodbye, then a birth and a reboot event', async () => {
    h.gateway({ sn: 'GWCMD001' });
    await h.platform.waitFor('GWCMD001', 'status', (m) => m.online === true);
    const mark = h.platform.mark();
    await h.platform.send('GWCMD001', 'command', { command: 'reboot' });
    await h.platform.waitFor('GWCMD001', 'status', (m) => m.online === false, { since: mark });
    await h.platform.waitFor('GWCMD001', 'status', (m) => m.online === true, { since: mark });
    await h.platform.waitFor('GWCMD001', 'event', (m) => m.event === 'reboot' && m.detail === 'command', {
      since: mark,
    });
  });

  it('survives hostile down messages and keeps answering', async () => {
    const gw = h.gateway({ sn: 'GWHOST01' });
    await h.platform.waitFor('GWHOST01', 'status', (m) => m.online === true);
    const junk: unknown[] = [
      'not json',
      '[1,2,3]',
      'null',
      '"text"',
      { requestId: 42 },
      { requestId: 'x'.repeat(10_000), expiresAt: 'never' },
      { upgradeId: { nested: true } },
      { version: 'one', hash: 'zz', config: 'nodes' },
      { session: 's', port: 99, data: '01 03' },
      { session: 's', port: 1, data: '01\u000003' },
      { command: 'format-disk' },
      { version: 1e308, hash: 'ab'.repeat(32), config: { nodes: [{ id: '\u0000' }], links: 5 } },
    ];
    for (const sub of ['bind', 'firmware', 'config', 'config/commit', 'passthrough', 'command', 'unknown'])
      for (const message of junk) await h.platform.send('GWHOST01', sub, message);
    // over the 1 MiB a gateway reads
    await h.platform.send(
      'GWHOST01',
      'config',
      JSON.stringify({ version: 1, hash: 'ab'.repeat(32), pad: 'x'.repeat(1_100_000) }),
    );
    await h.platform.send('GWHOST01', 'passthrough', {
      session: 'after',
      port: 1,
      data: '01 03 00 00 00 02 C4 0B',
    });
    await h.platform.waitFor('GWHOST01', 'passthrough', (m) => m.session === 'after');
    expect(gw.state().counters.badMessages).toBeGreaterThan(40);
    expect(gw.state().online).toBe(true);
    // the config pushes were answered as rejections naming the field
    const answers = h.platform.of('GWHOST01', 'config');
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((a) => a.result === 'rejected')).toBe(true);
  });
});
