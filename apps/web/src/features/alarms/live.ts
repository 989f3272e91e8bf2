/**
 * Alarm changes live (the wall and the home card): one socket to
 * `/cloudSurveillance/alarm/live` (docs/alarms.md) while mounted. Each change of an alarm reads
 * the open alarms again (at most once per READ_AGAIN_MS, so a burst of changes costs one read);
 * so does every (re)connection, because changes made while the socket was down were never heard.
 * `connected` is true only once the server confirmed it hears every change (its 'ready').
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLiveSocket } from '../../app/live';
import { alarmKeys } from './api';

const READ_AGAIN_MS = 300;

export interface AlarmMessage {
  type: 'alarm';
  alarmId: number;
  /** fired | raised | lowered | cleared | acknowledged */
  change: string;
  level: number;
  status: string;
  name: string;
  value: number | null;
  itemId: number | null;
  /** the caller was told of it (a recipient) */
  mine: boolean;
}

function isAlarm(message: Record<string, unknown>): message is Record<string, unknown> & AlarmMessage {
  return message.type === 'alarm' && typeof message.alarmId === 'number';
}

export function useAlarmFeed(opts: { enabled: boolean; onAlarm?: (message: AlarmMessage) => void }) {
  const queryClient = useQueryClient();
  const timer = useRef<number | undefined>(undefined);
  const onAlarm = useRef(opts.onAlarm);
  onAlarm.current = opts.onAlarm;
  const readAgain = () => {
    if (timer.current !== undefined) return;
    timer.current = window.setTimeout(() => {
      timer.current = undefined;
      void queryClient.invalidateQueries({ queryKey: alarmKeys.open });
    }, READ_AGAIN_MS);
  };
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const { status } = useLiveSocket('/cloudSurveillance/alarm/live', {
    enabled: opts.enabled,
    onOpen: (send) => send({ type: 'ping' }),
    readyWhen: (message) => message.type === 'ready',
    onMessage: (message) => {
      if (message.type === 'ready') {
        readAgain();
        return;
      }
      if (!isAlarm(message)) return;
      onAlarm.current?.(message);
      readAgain();
    },
  });
  return { status, connected: status === 'open' };
}
