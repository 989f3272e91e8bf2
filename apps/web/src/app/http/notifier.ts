/**
 * antd's notification needs the <App> context to follow the theme and locale; the http
 * client lives outside React. <NotifierBridge/> (rendered inside antd <App>) hands its
 * instance over; until then the static API is used.
 */
import { App, notification as staticNotification } from 'antd';
import { useEffect } from 'react';

type NotificationInstance = ReturnType<typeof App.useApp>['notification'];

let instance: NotificationInstance | null = null;

export function notifier(): NotificationInstance {
  return instance ?? staticNotification;
}

export function NotifierBridge(): null {
  const { notification } = App.useApp();
  useEffect(() => {
    instance = notification;
    return () => {
      if (instance === notification) instance = null;
    };
  }, [notification]);
  return null;
}
