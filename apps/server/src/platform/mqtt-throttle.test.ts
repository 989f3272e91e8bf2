import { describe, expect, it } from 'vitest';
import { ConnectThrottle, THROTTLE_MAX_ADDRESSES, THROTTLE_WINDOW_MS } from './mqtt-throttle';

describe('failed CONNECTs per address', () => {
  it('shut an address out once it failed `limit` times in a window, and let it in again after', () => {
    let now = 1_000_000;
    const throttle = new ConnectThrottle(3, () => now);
    for (let i = 0; i < 2; i++) throttle.failed('10.0.0.1');
    expect(throttle.blocked('10.0.0.1')).toBe(false);
    throttle.failed('10.0.0.1');
    expect(throttle.blocked('10.0.0.1')).toBe(true);
    // another address is not held up by it
    expect(throttle.blocked('10.0.0.2')).toBe(false);
    now += THROTTLE_WINDOW_MS - 1;
    expect(throttle.blocked('10.0.0.1')).toBe(true);
    now += 1;
    expect(throttle.blocked('10.0.0.1')).toBe(false);
    expect(throttle.size).toBe(0);
  });

  it('counts nothing with the limit off or without an address', () => {
    const off = new ConnectThrottle(0);
    for (let i = 0; i < 100; i++) off.failed('10.0.0.1');
    expect(off.blocked('10.0.0.1')).toBe(false);
    expect(off.size).toBe(0);
    const on = new ConnectThrottle(1);
    on.failed(undefined);
    expect(on.blocked(undefined)).toBe(false);
  });

  it('remembers a bounded number of addresses, whatever a scan from many addresses sends', () => {
    let now = 0;
    const throttle = new ConnectThrottle(2, () => now);
    for (let i = 0; i < THROTTLE_MAX_ADDRESSES * 2; i++) {
      throttle.failed(`addr-${i}`);
      now += 1;
    }
    expect(throttle.size).toBeLessThanOrEqual(THROTTLE_MAX_ADDRESSES);
    // the newest are still counted
    throttle.failed(`addr-${THROTTLE_MAX_ADDRESSES * 2 - 1}`);
    expect(throttle.blocked(`addr-${THROTTLE_MAX_ADDRESSES * 2 - 1}`)).toBe(true);
  });
});
