/**
 * Starts the demo company's simulated gateways inside the server process (`npm start`, unless
 * DEMO_GATEWAYS=off): their broker accounts where the server keeps them, then the fleet of
 * apps/gateway-sim, connected to the platform's broker as any gateway is, each signing in with
 * its own secret from DATA_DIR/secrets/demo-gateways.json. The bound ones run the configuration
 * the seed saved for them, so their meters' and sensors' readings become records of the demo's
 * IoT items; the unbound one waits for someone to bind it.
 */
import { type DemoFleet, startDemoFleet } from '@platform/gateway-sim';
import type { App } from '../platform/context';
import { brokerAddress } from '../platform/mqtt-external';
import { provisionDemoGateways, readDemoGateways } from './demo-gateways';

export async function startDemoGateways(app: App): Promise<DemoFleet | null> {
  const config = app.config;
  if (!config.demoGateways || !app.mqtt) return null;
  const fleet = await readDemoGateways(config.dataDir);
  if (!fleet) return null;
  if (app.mqtt.accounts)
    await provisionDemoGateways(app.db, app.mqtt.accounts, fleet).catch((error) =>
      app.log.warn({ err: error }, 'could not give the demo gateways their MQTT broker accounts'),
    );
  const brokerHost = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  const mqttUrl = config.mqttUrl ? brokerAddress(config.mqttUrl) : `mqtt://${brokerHost}:${app.mqtt.port}`;
  const demoFleet = await startDemoFleet({ dataDir: config.dataDir, mqttUrl, log: app.log }).catch(
    (error) => {
      app.log.warn({ err: error }, 'could not start the demo gateways');
      return null;
    },
  );
  app.demoDevices.fleet = demoFleet;
  return demoFleet;
}
