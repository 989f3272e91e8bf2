/** A local broker, a platform stand-in and gateways on them, for the protocol tests. */
import { type GatewayOptions, SimGateway } from '../gateway';
import type { GatewaySpec } from '../types';
import { type LocalBroker, startLocalBroker } from './broker';
import { PlatformStandIn } from './platform-stand-in';

export interface Harness {
  broker: LocalBroker;
  platform: PlatformStandIn;
  /** a gateway on the local broker, started; stopped by close() */
  gateway(spec: Partial<GatewaySpec> & { sn: string }, options?: Partial<GatewayOptions>): SimGateway;
  close(): Promise<void>;
}

/** Fast everything: upgrades 500 times faster than real, reconnection within 50-200 ms. */
export const FAST: Partial<GatewayOptions> = { speed: 500, backoff: { minMs: 50, maxMs: 200 } };

export async function startHarness(): Promise<Harness> {
  const broker = await startLocalBroker();
  const platform = await PlatformStandIn.connect(broker.url);
  const gateways: SimGateway[] = [];
  return {
    broker,
    platform,
    gateway(spec, options = {}) {
      const gateway = new SimGateway(
        { secret: `gws_${spec.sn.toLowerCase()}`, ...spec },
        { url: broker.url, ...FAST, ...options },
      );
      gateways.push(gateway);
      gateway.start();
      return gateway;
    },
    async close() {
      await Promise.all(gateways.map((g) => g.stop()));
      for (const g of gateways) g.scheduler.stop();
      await platform.close();
      await broker.close();
    },
  };
}

/** Polls `check` until it holds (generous deadline: the machine may be busy). */
export async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
