/**
 * A Modbus RTU slave as a device behaves on the bus (Modbus Application Protocol v1.1b3,
 * Modbus over Serial Line v1.02):
 * - a request for another address, with a bad CRC, or cut short gets no answer at all (the
 *   slave cannot know it was meant for it);
 * - function 01 (read coils), 03 (read holding registers), 04 (read input registers),
 *   05 (write single coil) and 06 (write single register) are answered; any other function
 *   gets exception 01 (illegal function), an address it does not have exception 02 (illegal
 *   data address), a quantity out of range or a coil value other than 0000/FF00 exception 03;
 * - address 0 is a broadcast: writes are carried out and never answered.
 */
import { appendCrc, hasValidCrc } from '@platform/domain';
import type { CoilPoint, RegisterPoint, SlaveModel, SlaveParams } from './models';
import { decodeValue, encodeValue, registerCount } from './registers';
import { hash01 } from './signals';

/** What a slave can be made to do wrong (the controller's faults). */
export const SLAVE_FAULTS = ['none', 'silent', 'garbage', 'badCrc'] as const;
export type SlaveFault = (typeof SLAVE_FAULTS)[number];

export const EXCEPTION = { illegalFunction: 1, illegalDataAddress: 2, illegalDataValue: 3 } as const;

interface RegisterSlot {
  point: RegisterPoint;
  /** which register of the point (0 or 1) */
  word: number;
}

interface ModelIndex {
  registers: Map<number, RegisterSlot>;
  coils: Map<number, CoilPoint>;
  settings: Map<string, RegisterPoint>;
  coilsByName: Map<string, CoilPoint>;
}

const indexes = new WeakMap<SlaveModel, ModelIndex>();

function indexOf(model: SlaveModel): ModelIndex {
  let index = indexes.get(model);
  if (!index) {
    index = { registers: new Map(), coils: new Map(), settings: new Map(), coilsByName: new Map() };
    for (const point of model.registers) {
      for (let word = 0; word < registerCount(point.type); word++)
        index.registers.set(point.address + word, { point, word });
      if (point.table === 'holding') index.settings.set(point.name, point);
    }
    for (const coil of model.coils) {
      index.coils.set(coil.address, coil);
      index.coilsByName.set(coil.name, coil);
    }
    indexes.set(model, index);
  }
  return index;
}

export class ModbusSlave {
  fault: SlaveFault = 'none';
  /** settings and coils written with 05/06, by name (physical value; coils 1/0) */
  private written: Map<string, number> | null = null;
  private readonly index: ModelIndex;

  constructor(
    readonly model: SlaveModel,
    readonly params: SlaveParams,
  ) {
    if (!Number.isInteger(params.address) || params.address < 1 || params.address > 247)
      throw new RangeError(`a slave address is 1-247, got ${params.address}`);
    this.index = indexOf(model);
  }

  get address(): number {
    return this.params.address;
  }

  /** The value of a register point or coil state that is not a measurement (settings, written coils). */
  private readonly get = (name: string): number => {
    const written = this.written?.get(name);
    if (written !== undefined) return written;
    if (name === 'address') return this.params.address;
    const setting = this.index.settings.get(name);
    if (setting) return setting.initial ?? Number.NaN;
    const coil = this.index.coilsByName.get(name);
    if (coil) return coil.initial ? 1 : 0;
    return Number.NaN;
  };

  /** The physical value of a register point at `t` (ms since 1970), before it is rounded into its register. */
  valueAt(name: string, t: number): number {
    if (this.index.settings.has(name)) return this.get(name);
    return this.model.value(name, t, this.params, this.get);
  }

  /** The state of a coil at `t`. */
  coilAt(name: string, t: number): boolean {
    return this.model.coil(name, t, this.params, this.get);
  }

  /** The bytes of a point's registers at `t`, as sent. */
  pointBytes(point: RegisterPoint, t: number): number[] {
    const value = this.valueAt(point.name, t);
    return encodeValue(point.type, point.type === 'float32' ? value : value * point.scale, this.model.order);
  }

  /**
   * What this slave puts on the bus in answer to `request` at `t`, faults included; null when
   * it stays silent.
   */
  answer(request: Uint8Array, t: number): Uint8Array | null {
    if (this.fault === 'silent') return null;
    const answer = this.respond(request, t);
    if (!answer || this.fault === 'none') return answer;
    if (this.fault === 'badCrc') {
      const broken = answer.slice();
      broken[broken.length - 1]! ^= 0x5a;
      return broken;
    }
    // garbage: noise of about the answer's length, different at every read
    const out = new Uint8Array(answer.length);
    for (let i = 0; i < out.length; i++) out[i] = Math.floor(hash01(this.params.seed ^ t, i) * 256);
    return out;
  }

  /** The protocol alone (no faults): the answer to `request`, or null for silence. */
  respond(request: Uint8Array, t: number): Uint8Array | null {
    if (request.length < 4 || !hasValidCrc(request)) return null;
    const address = request[0]!;
    const broadcast = address === 0;
    if (!broadcast && address !== this.params.address) return null;
    const fc = request[1]!;
    const pdu = request.subarray(2, request.length - 2);
    const answer = this.execute(fc, pdu, t);
    if (broadcast || answer === null) return null;
    return appendCrc([address, ...answer]);
  }

  /** The answer's PDU (function code onwards), or null for a malformed request. */
  private execute(fc: number, pdu: Uint8Array, t: number): number[] | null {
    const exception = (code: number) => [fc | 0x80, code];
    const word = (i: number) => (pdu[i]! << 8) | pdu[i + 1]!;
    switch (fc) {
      case 0x01: {
        if (pdu.length !== 4) return null;
        const start = word(0);
        const count = word(2);
        if (count < 1 || count > 2000) return exception(EXCEPTION.illegalDataValue);
        const bytes = new Array<number>(Math.ceil(count / 8)).fill(0);
        for (let i = 0; i < count; i++) {
          const coil = this.index.coils.get(start + i);
          if (!coil) return exception(EXCEPTION.illegalDataAddress);
          if (this.coilAt(coil.name, t)) bytes[i >> 3]! |= 1 << (i & 7);
        }
        return [fc, bytes.length, ...bytes];
      }
      case 0x03:
      case 0x04: {
        if (pdu.length !== 4) return null;
        const start = word(0);
        const count = word(2);
        if (count < 1 || count > 125) return exception(EXCEPTION.illegalDataValue);
        const out: number[] = [fc, count * 2];
        const computed = new Map<RegisterPoint, number[]>();
        for (let a = start; a < start + count; a++) {
          const slot = this.index.registers.get(a);
          if (!slot || (fc === 0x04 && slot.point.table !== 'both'))
            return exception(EXCEPTION.illegalDataAddress);
          let bytes = computed.get(slot.point);
          if (!bytes) {
            bytes = this.pointBytes(slot.point, t);
            computed.set(slot.point, bytes);
          }
          out.push(bytes[slot.word * 2]!, bytes[slot.word * 2 + 1]!);
        }
        return out;
      }
      case 0x05: {
        if (pdu.length !== 4) return null;
        const value = word(2);
        if (value !== 0xff00 && value !== 0x0000) return exception(EXCEPTION.illegalDataValue);
        const coil = this.index.coils.get(word(0));
        if (!coil || coil.initial === undefined) return exception(EXCEPTION.illegalDataAddress);
        this.write(coil.name, value === 0xff00 ? 1 : 0, t);
        return [fc, ...pdu];
      }
      case 0x06: {
        if (pdu.length !== 4) return null;
        const slot = this.index.registers.get(word(0));
        const point = slot?.point;
        if (!point || point.initial === undefined || registerCount(point.type) !== 1)
          return exception(EXCEPTION.illegalDataAddress);
        this.write(point.name, decodeValue(point.type, [pdu[2]!, pdu[3]!]) / point.scale, t);
        return [fc, ...pdu];
      }
      default:
        return exception(EXCEPTION.illegalFunction);
    }
  }

  private write(name: string, value: number, t: number): void {
    // what the model keeps of the change is worked out before the value changes
    const beside = this.model.written?.(name, value, t, this.params, this.get) ?? {};
    this.written ??= new Map();
    this.written.set(name, value);
    for (const [key, kept] of Object.entries(beside)) this.written.set(key, kept);
  }
}
