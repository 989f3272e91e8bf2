/**
 * antd's notification needs the App context to follow the theme and locale; the http
 * client lives outside React. <NotifierBridge/> (rendered inside <Feedback>) hands its
 * instance over; a notice raised before that (none is, in practice: the bridge is the first
 * thing the app renders) waits for it. No static antd API here: it would come with the login
 * page for nothing.
 */
import { useEffect } from 'react';
import { useFeedback } from '../feedback';

type NotificationInstance = ReturnType<typeof useFeedback>['notification'];
type Notice = Parameters<NotificationInstance['error']>[0];

let instance: NotificationInstance | null = null;
const waiting: Notice[] = [];

/** What the http layer shows: errors. */
export function notifier(): Pick<NotificationInstance, 'error'> {
  return {
    error(notice) {
      if (instance) instance.error(notice);
      else waiting.push(notice);
    },
  };
}

export function NotifierBridge(): null {
  const { notification } = useFeedback();
  useEffect(() => {
    instance = notification;
    for (const notice of waiting.splice(0)) notification.error(notice);
    return () => {
      if (instance === notification) instance = null;
    };
  }, [notification]);
  return null;
}
