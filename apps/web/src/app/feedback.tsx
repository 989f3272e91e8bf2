/**
 * antd's <App> in two halves, so the login page does not load what only the pages after login
 * use. `App.useApp()` works unchanged everywhere: both halves fill antd's own App context.
 *
 * - <Feedback> (every page, the login page too): message and notification following the
 *   ConfigProvider's theme and locale, and the `ant-app` element with its base text style, as
 *   antd's <App> renders them.
 * - <ModalFeedback> (the pages after login, in signedIn.tsx): adds `modal` (confirm and co).
 *   antd's <App> makes it at once, which brings Modal, its dialog and Skeleton (~10 kB gzip)
 *   to the login page, where nothing asks for a confirmation.
 */
import AppContext, { type useAppProps } from 'antd/es/app/context';
import useAppStyle from 'antd/es/app/style';
import { ConfigContext } from 'antd/es/config-provider';
import useMessage from 'antd/es/message/useMessage';
import useNotification from 'antd/es/notification/useNotification';
import { type ReactNode, useContext, useMemo } from 'react';

/**
 * `App.useApp()` without importing antd's <App> (which brings the modal along): the login
 * page's modules use this, the pages after login may use either.
 */
export function useFeedback(): useAppProps {
  return useContext(AppContext);
}

/** Before <ModalFeedback> is there, `modal` is what antd's context holds without an <App>. */
const NO_MODAL = {} as useAppProps['modal'];

export function Feedback({ children }: { children: ReactNode }) {
  const { getPrefixCls } = useContext(ConfigContext);
  const prefixCls = getPrefixCls('app');
  const [hashId, cssVarCls] = useAppStyle(prefixCls);
  const [message, messageHolder] = useMessage();
  const [notification, notificationHolder] = useNotification();
  const value = useMemo<useAppProps>(
    () => ({ message, notification, modal: NO_MODAL }),
    [message, notification],
  );
  return (
    <AppContext.Provider value={value}>
      <div className={[hashId, prefixCls, cssVarCls].filter(Boolean).join(' ')}>
        {messageHolder}
        {notificationHolder}
        {children}
      </div>
    </AppContext.Provider>
  );
}
