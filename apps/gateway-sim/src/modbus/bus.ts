/**
 * A serial bus behind one port of a gateway: its line settings (what the slaves on it are set
 * to) and its slaves. A request sent with other settings (baud rate, data bits, stop bits or
 * parity) reaches the slaves as noise: like a real RS-485 line, nothing answers.
 */
import type { Parity } from '@platform/domain';
import { type SlaveKind, slaveModel } from './models';
import type { WordOrder } from './registers';
import { seedOf } from './signals';
import { ModbusSlave } from './slave';

export interface LineSettings {
  baudRate: number;
  dataBits: number;
  stopBits: number;
  parity: Parity;
}

export const DEFAULT_LINE: LineSettings = { baudRate: 9600, dataBits: 8, stopBits: 1, parity: 0 };

/** A slave on a port, as a fleet file or a test describes it. */
export interface SlaveSpec {
  kind: SlaveKind;
  /** 1-247 */
  address: number;
  /** the order of its 32-bit values (default ABCD) */
  order?: WordOrder;
  /** fixes its values (default: from the gateway's serial number, port and address) */
  seed?: number;
  /** temperature sensor only: its mean temperature, °C (a cold store: -18) */
  baseTemperature?: number;
}

/** A port of a gateway and what is wired to it. */
export interface PortSpec extends Partial<LineSettings> {
  /** 1-based */
  port: number;
  slaves?: SlaveSpec[];
}

export function sameLine(a: LineSettings, b: LineSettings): boolean {
  return (
    a.baudRate === b.baudRate &&
    a.dataBits === b.dataBits &&
    a.stopBits === b.stopBits &&
    a.parity === b.parity
  );
}

export function describeLine(line: LineSettings): string {
  return `${line.baudRate} ${line.dataBits}${'NOE'[line.parity] ?? '?'}${line.stopBits}`;
}

export class SerialBus {
  readonly line: LineSettings;
  readonly slaves: ModbusSlave[];

  readonly port: number;

  constructor(
    spec: PortSpec,
    /** seeds slaves without their own seed: the gateway's serial number */
    owner: string,
  ) {
    this.port = spec.port;
    const port = spec.port;
    this.line = {
      baudRate: spec.baudRate ?? DEFAULT_LINE.baudRate,
      dataBits: spec.dataBits ?? DEFAULT_LINE.dataBits,
      stopBits: spec.stopBits ?? DEFAULT_LINE.stopBits,
      parity: spec.parity ?? DEFAULT_LINE.parity,
    };
    this.slaves = (spec.slaves ?? []).map(
      (s) =>
        new ModbusSlave(slaveModel(s.kind, s.order ?? 'ABCD'), {
          address: s.address,
          seed: s.seed ?? seedOf(`${owner}/${port}/${s.address}`),
          ...(s.baseTemperature === undefined ? {} : { baseTemperature: s.baseTemperature }),
        }),
    );
  }

  slave(address: number): ModbusSlave | undefined {
    return this.slaves.find((s) => s.address === address);
  }

  /**
   * Writes `request` on the bus with the port set to `settings` and returns what came back,
   * or null when nothing answered. Every slave hears the request; at most one is addressed.
   */
  transact(request: Uint8Array, settings: LineSettings, t: number): Uint8Array | null {
    if (!sameLine(settings, this.line)) return null;
    let answer: Uint8Array | null = null;
    for (const slave of this.slaves) {
      const reply = slave.answer(request, t);
      if (reply && !answer) answer = reply;
    }
    return answer;
  }
}
