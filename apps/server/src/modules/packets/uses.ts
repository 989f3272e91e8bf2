/**
 * Where a packet is still used, asked before it is deleted. Gateway configurations (which send
 * packets on their ports) come with the gateway module: it registers its check here once,
 * `app.packetUses.register(check)`, and a packet one of them names cannot be deleted. Until
 * then nothing uses a packet outside this module (its parser goes with it).
 */
import type { Db } from '../../platform/db';

/** A human-readable name of the first thing using the packet ("gateway SN1234 configuration"), or null. */
export type PacketUseCheck = (db: Db, companyId: number, packageId: number) => Promise<string | null>;

export class PacketUses {
  private readonly checks: PacketUseCheck[] = [];

  register(check: PacketUseCheck): void {
    this.checks.push(check);
  }

  async whereUsed(db: Db, companyId: number, packageId: number): Promise<string | null> {
    for (const check of this.checks) {
      const where = await check(db, companyId, packageId);
      if (where) return where;
    }
    return null;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** checks of what still uses a serial packet (gateway configurations) */
    packetUses: PacketUses;
  }
}
