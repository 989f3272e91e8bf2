/**
 * Gateways as MQTT clients (platform/mqtt-principals.ts): username = the serial number (upper
 * case, as registered), password = the gateway's secret, checked against its SHA-256. A
 * registered gateway may connect whether or not a company has bound it (it must be online to
 * be bound). Its credential is the start of its secret's hash, so replacing the secret ends the
 * connections made with the old one (the access epoch, on every node).
 */
import { timingSafeEqual } from 'node:crypto';
import { gatewayAcl, isGatewaySecretShape, isSerialNumber } from '@platform/domain';
import { eq, inArray } from 'drizzle-orm';
import type { App } from '../../platform/context';
import type { MqttPrincipal, PrincipalKind } from '../../platform/mqtt-principals';
import { sha256 } from '../../platform/tokens';
import { gateways } from './tables';

/** what identifies a secret among a gateway's secrets without revealing anything of it */
export function credentialOf(secretHash: string): string {
  return secretHash.slice(0, 16);
}

function principal(sn: string, secretHash: string): MqttPrincipal {
  return { kind: 'gateway', username: sn, acl: gatewayAcl(sn), credential: credentialOf(secretHash) };
}

export function gatewayPrincipals(app: App): PrincipalKind {
  const hashes = async (sns: readonly string[]) => {
    const valid = [...new Set(sns.filter(isSerialNumber))];
    if (valid.length === 0) return new Map<string, string>();
    const rows = await app.db
      .select({ sn: gateways.serialNumber, hash: gateways.secretHash })
      .from(gateways)
      .where(inArray(gateways.serialNumber, valid));
    return new Map(rows.map((r) => [r.sn, r.hash]));
  };
  return {
    kind: 'gateway',
    owns: (username) => isSerialNumber(username),
    async authenticate(username, password) {
      if (!isSerialNumber(username) || !isGatewaySecretShape(password)) return null;
      const [row] = await app.db
        .select({ hash: gateways.secretHash })
        .from(gateways)
        .where(eq(gateways.serialNumber, username));
      if (!row) return null;
      const given = Buffer.from(sha256(password), 'hex');
      const stored = Buffer.from(row.hash, 'hex');
      if (given.length !== stored.length || !timingSafeEqual(given, stored)) return null;
      return principal(username, row.hash);
    },
    async current(username) {
      const hash = (await hashes([username])).get(username);
      return hash ? principal(username, hash) : null;
    },
    async states(usernames) {
      const known = await hashes(usernames);
      return new Map(usernames.map((u) => [u, known.has(u) ? 'allowed' : 'gone']));
    },
    async allowedUsernames() {
      const rows = await app.db.select({ sn: gateways.serialNumber }).from(gateways);
      return rows.map((r) => r.sn);
    },
    async credentials(usernames) {
      const known = await hashes(usernames);
      return new Map([...known].map(([sn, hash]) => [sn, credentialOf(hash)]));
    },
  };
}
