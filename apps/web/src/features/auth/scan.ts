/**
 * The scan-code login as a state machine (docs/api-foundation.md):
 *
 *   loading → waiting ⇄ scanned → success (token) → logged in
 *                               → needPhone → bind phone + SMS code → logged in
 *             waiting/scanned/needPhone → expired (QR life over) → refresh → loading
 *   loading → unavailable (the server has no scan-code login configured)
 *
 * The status is polled every 2 s while the scan tab is shown and the browser tab is
 * visible. A confirmed scan's token is handed out by the server exactly once, so an answer
 * carrying a token is always used, even when polling was paused while it was in flight.
 */
import { ERROR_CODES } from '@platform/domain';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../app/http/client';
import { authApi, type ScanPoll, type ScanQr, type TokenData } from './api';
import { useMounted, usePageVisible } from './hooks';

export const SCAN_POLL_MS = 2000;

export type ScanPhase =
  | 'loading'
  | 'failed'
  | 'unavailable'
  | 'waiting'
  | 'scanned'
  | 'needPhone'
  | 'loggingIn'
  | 'expired';

export interface ScanCode {
  sceneId: string;
  scanUrl: string;
  display: ScanQr['display'];
  /** epoch ms */
  expiresAt: number;
}

export interface ScanLogin {
  phase: ScanPhase;
  code: ScanCode | null;
  nickname: string;
  /** fetch a new QR code */
  refresh: () => void;
  /** the bind step found the session gone */
  expire: () => void;
}

export function useScanLogin(active: boolean, onToken: (token: TokenData) => Promise<void>): ScanLogin {
  const [phase, setPhase] = useState<ScanPhase>('loading');
  const [code, setCode] = useState<ScanCode | null>(null);
  const [nickname, setNickname] = useState('');
  const visible = usePageVisible();
  const mounted = useMounted();
  const generation = useRef(0);
  const onTokenRef = useRef(onToken);
  onTokenRef.current = onToken;

  const refresh = useCallback(() => {
    const mine = ++generation.current;
    setPhase('loading');
    setCode(null);
    setNickname('');
    authApi.scanQrCode().then(
      (qr) => {
        if (!mounted.current || mine !== generation.current) return;
        setCode({
          sceneId: qr.sceneId,
          scanUrl: qr.scanUrl,
          display: qr.display,
          expiresAt: Date.now() + qr.expiresIn * 1000,
        });
        setPhase('waiting');
      },
      (error: unknown) => {
        if (!mounted.current || mine !== generation.current) return;
        const notConfigured = error instanceof ApiError && error.code === ERROR_CODES.NOT_FOUND;
        setPhase(notConfigured ? 'unavailable' : 'failed');
      },
    );
  }, [mounted]);

  const expire = useCallback(() => setPhase('expired'), []);

  // the first QR code when the scan tab is first shown
  const started = useRef(false);
  useEffect(() => {
    if (active && !started.current) {
      started.current = true;
      refresh();
    }
  }, [active, refresh]);

  const polling = phase === 'waiting' || phase === 'scanned';

  useEffect(() => {
    if (!active || !visible || !polling || !code) return;
    let stopped = false;
    let timer: number | undefined;
    const mine = generation.current;

    const handle = (result: ScanPoll) => {
      if (result.status === 'success' && result.token) {
        if (!mounted.current || mine !== generation.current) return;
        setPhase('loggingIn');
        const token = { token: result.token, expiresIn: result.expiresIn ?? 0 };
        onTokenRef.current(token).catch(() => {
          if (mounted.current) setPhase('failed');
        });
        return;
      }
      if (stopped) return;
      switch (result.status) {
        case 'needPhone':
          setNickname(result.nickname ?? '');
          setPhase('needPhone');
          return;
        case 'expired':
        case 'success': // a success without a token was claimed elsewhere
          setPhase('expired');
          return;
        case 'scanned':
          setPhase('scanned');
          break;
        default:
          break;
      }
      timer = window.setTimeout(tick, SCAN_POLL_MS);
    };

    const tick = () => {
      if (stopped) return;
      if (Date.now() >= code.expiresAt) {
        setPhase('expired');
        return;
      }
      authApi.pollScan(code.sceneId).then(handle, () => {
        // a network blink: try again on the next beat
        if (!stopped) timer = window.setTimeout(tick, SCAN_POLL_MS);
      });
    };

    // at once: a person coming back to the tab may have confirmed on the phone meanwhile
    tick();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [active, visible, polling, code, mounted]);

  // the QR code's life runs out even while nobody polls (tab hidden)
  useEffect(() => {
    if (!code || !(phase === 'waiting' || phase === 'scanned')) return;
    const timer = window.setTimeout(() => setPhase('expired'), Math.max(0, code.expiresAt - Date.now()));
    return () => window.clearTimeout(timer);
  }, [code, phase]);

  return { phase, code, nickname, refresh, expire };
}
