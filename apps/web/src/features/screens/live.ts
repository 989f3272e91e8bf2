/**
 * The latest value of each bound point as the show page draws it: samples keyed by point, and
 * "now" on the server's clock (ages are worked out against the time the values answer carries,
 * so a browser whose clock is off neither greys live values nor passes stale ones as live).
 */
import type { PointSample } from '@platform/domain';
import { useEffect, useMemo, useState } from 'react';
import { useDeviceFlow } from '../deviceviews/live';
import type { ScreenValues } from './api';

export const pointKey = (itemId: number, field: string) => `${itemId}:${field}`;

export function samplesOf(values: ScreenValues | undefined): Map<string, PointSample> {
  const out = new Map<string, PointSample>();
  for (const v of values?.values ?? []) {
    if (v.ts === null) continue;
    out.set(pointKey(v.itemId, v.field), { value: v.value, ts: Date.parse(v.ts) });
  }
  return out;
}

/**
 * The records the device live socket pushes while mounted (`flow` events of kind `record`;
 * items the caller cannot read are left out by the server), newest per point. The socket pushes
 * the records the gateway's own frames make; records submitted for the device's items another
 * way (HTTP, MQTT submission) are not pushed, so the page keeps asking for the values too.
 */
export function useLivePush(
  deviceId: number,
  enabled: boolean,
): { pushed: Map<string, PointSample>; watching: boolean } {
  const [pushed, setPushed] = useState<Map<string, PointSample>>(() => new Map());
  const { watching } = useDeviceFlow(
    deviceId,
    (event) => {
      if (event.type !== 'flow' || event.kind !== 'record') return;
      const ts = Date.parse(event.ts);
      setPushed((before) => {
        const next = new Map(before);
        for (const [field, value] of Object.entries(event.values)) {
          const key = pointKey(event.itemId, field);
          const held = next.get(key);
          if (!held || held.ts <= ts) next.set(key, { value, ts });
        }
        return next;
      });
    },
    enabled,
  );
  return { pushed, watching };
}

/**
 * The samples a live page draws: the values answer's, overtaken by a newer pushed record of the
 * same point. Only the points the answer names are drawn (a pushed field nobody binds stays out).
 */
export function mergeSamples(
  values: ScreenValues | undefined,
  pushed: Map<string, PointSample>,
): Map<string, PointSample> {
  const out = samplesOf(values);
  const named = new Set((values?.values ?? []).map((v) => pointKey(v.itemId, v.field)));
  for (const [key, sample] of pushed) {
    if (!named.has(key)) continue;
    const polled = out.get(key);
    if (!polled || polled.ts < sample.ts) out.set(key, sample);
  }
  return out;
}

/** "now" on the server's clock, ticking each second; `answeredAt` is when `at` arrived. */
export function useServerNow(at: string | undefined, answeredAt: number): number {
  const offset = useMemo(() => (at ? Date.parse(at) - answeredAt : 0), [at, answeredAt]);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return now + offset;
}

/** An age in words' units: "12 s", "5 min", "3 h", "2 d". */
export function ageText(seconds: number, units: { s: string; min: string; h: string; d: string }): string {
  if (seconds < 60) return `${seconds} ${units.s}`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} ${units.min}`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} ${units.h}`;
  return `${Math.floor(seconds / 86_400)} ${units.d}`;
}
