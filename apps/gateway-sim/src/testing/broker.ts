/**
 * A local MQTT broker without authentication (aedes) for the simulator's tests, its memory
 * measurement and trying the simulator without a platform. Never a platform's broker: it lets
 * anyone in.
 */
import { createServer, type Socket } from 'node:net';
import { Aedes } from 'aedes';

export interface LocalBroker {
  url: string;
  port: number;
  broker: Aedes;
  /** clients connected now */
  clients(): number;
  /** closes a client's connection from the broker's side (as a broker restart would); false when not connected */
  kick(clientId: string): boolean;
  close(): Promise<void>;
}

export async function startLocalBroker(options: { host?: string; port?: number } = {}): Promise<LocalBroker> {
  const host = options.host ?? '127.0.0.1';
  // concurrency 0: no broker-wide cap on deliveries (as the platform's embedded broker)
  const broker = await Aedes.createBroker({ concurrency: 0 });
  const sockets = new Set<Socket>();
  const server = createServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    broker.handle(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `mqtt://${host}:${port}`,
    port,
    broker,
    clients: () => broker.connectedClients,
    kick: (clientId) => {
      // aedes keeps its clients by id; its typings leave the map out
      const client = (broker as unknown as { clients: Record<string, { close(): void } | undefined> })
        .clients[clientId];
      client?.close();
      return client !== undefined;
    },
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
