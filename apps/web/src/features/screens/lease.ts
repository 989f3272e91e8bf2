/**
 * The editor's lease (one editor at a time): taken when the editor opens, renewed every 20 s,
 * given back when it closes (unmount, or the tab closing with a keepalive request). Held by
 * someone else it says who and until when; lost (it ran out and someone took it) it says so.
 */
import { ERROR_CODES } from '@platform/domain';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../app/http/client';
import { LEASE_RENEW_MS, releaseOnUnload, screenApi } from './api';

export type LeaseState =
  | { kind: 'off' }
  | { kind: 'taking' }
  | { kind: 'mine'; leaseId: string }
  | { kind: 'held'; holder: string; expiresAt: string }
  | { kind: 'lost' }
  | { kind: 'failed'; message: string };

export function leaseRefusal(error: unknown): LeaseState | null {
  if (!(error instanceof ApiError) || error.code !== ERROR_CODES.CONFLICT) return null;
  const data = (error.data ?? {}) as { field?: string; holder?: string; expiresAt?: string };
  if (data.field === 'lease')
    return { kind: 'held', holder: data.holder ?? '?', expiresAt: data.expiresAt ?? '' };
  if (data.field === 'leaseId') return { kind: 'lost' };
  return null;
}

export function useLease(deviceId: number, enabled: boolean) {
  const [state, setState] = useState<LeaseState>({ kind: enabled ? 'taking' : 'off' });
  const held = useRef<string | null>(null);

  const take = useCallback(async () => {
    setState({ kind: 'taking' });
    try {
      const { leaseId } = await screenApi.lease(deviceId, null);
      held.current = leaseId;
      setState({ kind: 'mine', leaseId });
    } catch (error) {
      held.current = null;
      setState(leaseRefusal(error) ?? { kind: 'failed', message: (error as Error).message });
    }
  }, [deviceId]);

  useEffect(() => {
    if (!enabled) return;
    void take();
    const onHide = () => {
      if (held.current) releaseOnUnload(deviceId, held.current);
      held.current = null;
    };
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      const leaseId = held.current;
      held.current = null;
      if (leaseId) void screenApi.release(deviceId, leaseId).catch(() => undefined);
    };
  }, [deviceId, enabled, take]);

  const leaseId = state.kind === 'mine' ? state.leaseId : null;
  useEffect(() => {
    if (!leaseId) return;
    const timer = window.setInterval(async () => {
      try {
        await screenApi.lease(deviceId, leaseId);
      } catch (error) {
        const refusal = leaseRefusal(error);
        // a network blip is retried at the next tick; the lease runs 60 s
        if (refusal) {
          held.current = null;
          setState(refusal);
        }
      }
    }, LEASE_RENEW_MS);
    return () => window.clearInterval(timer);
  }, [deviceId, leaseId]);

  /** after a save refused for a lost lease */
  const lose = useCallback(() => {
    held.current = null;
    setState({ kind: 'lost' });
  }, []);

  return { state, retry: take, lose };
}
