/** Small hooks the login forms share. */
import { ERROR_CODES } from '@platform/domain/error-codes';
import type { FormInstance } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../app/http/client';
import { completeLogin, safeRedirect, type TokenData } from './api';

/** Store the token, fetch the user, go to the `redirect` target (or '/'). */
export function useFinishLogin(): (data: TokenData) => Promise<void> {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  return useCallback(
    async (data: TokenData) => {
      await completeLogin(data);
      navigate(safeRedirect(redirect), { replace: true });
    },
    [navigate, redirect],
  );
}

/**
 * A countdown in whole seconds. It counts against an end time rather than ticks, so a
 * background tab (whose timers the browser slows down) still shows the right number.
 */
export function useCountdown(): { remaining: number; start: (seconds: number) => void } {
  const [endsAt, setEndsAt] = useState(0);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (endsAt <= Date.now()) return;
    const timer = window.setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= endsAt) window.clearInterval(timer);
    }, 250);
    return () => window.clearInterval(timer);
  }, [endsAt]);

  const start = useCallback((seconds: number) => {
    const current = Date.now();
    setNow(current);
    setEndsAt(current + seconds * 1000);
  }, []);

  return { remaining: Math.max(0, Math.ceil((endsAt - now) / 1000)), start };
}

/**
 * The server names the field a rule broke in `data.field`; show its message under that field
 * too (the http client has already shown the notification).
 */
export function showFieldError(form: FormInstance, error: unknown, fields: readonly string[]): void {
  // "too many attempts" is about waiting, not about what was typed
  if (!(error instanceof ApiError) || error.code === ERROR_CODES.RATE_LIMITED) return;
  const field = (error.data as { field?: unknown } | null)?.field;
  if (typeof field === 'string' && fields.includes(field)) {
    form.setFields([{ name: field, errors: [error.message] }]);
  }
}

/** document.visibilityState as state: polling pauses while the browser tab is hidden. */
export function usePageVisible(): boolean {
  const [visible, setVisible] = useState(() => document.visibilityState !== 'hidden');
  useEffect(() => {
    const update = () => setVisible(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return visible;
}

/** False once the component has unmounted (an answer arriving later is then ignored). */
export function useMounted(): { readonly current: boolean } {
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}

/** The phone typed in one form follows into the others (tabs, register, forgot password). */
export function useSharedPhone(form: FormInstance, phone: string): void {
  useEffect(() => {
    if ((form.getFieldValue('phone') ?? '') !== phone) form.setFieldsValue({ phone });
  }, [form, phone]);
}
