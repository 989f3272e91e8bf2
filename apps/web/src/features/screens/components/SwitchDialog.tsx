/**
 * Working a switch of a screen or of a flow chart (`send` says which route): the switch's own
 * confirmation text, then its on or off command is sent (only the states it has a command for;
 * a flow chart's switch whose commands this device has none mapped for says so). The server's
 * refusal (offline, no permission, a command the configuration no longer has) is shown by the
 * http client.
 */
import type { ElementView, ScreenElement, SwitchState } from '@platform/domain';
import { App, Button, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Envelope } from '../../../app/http/client';
import { screenApi } from '../api';

export type SwitchElement = Extract<ScreenElement, { type: 'switch' }>;

export function SwitchDialog({
  deviceId,
  element,
  view,
  onClose,
  send: sendSwitch = screenApi.switch,
}: {
  deviceId: number;
  element: SwitchElement | null;
  view: ElementView | null;
  onClose: () => void;
  send?: (deviceId: number, elementId: string, state: SwitchState) => Promise<Envelope<unknown>>;
}) {
  const { t } = useTranslation('screens');
  const { message } = App.useApp();
  const [sending, setSending] = useState<SwitchState | null>(null);
  const send = async (state: SwitchState) => {
    if (!element) return;
    setSending(state);
    try {
      const envelope = await sendSwitch(deviceId, element.id, state);
      message.success(envelope.message || t('switch.sent', '指令已发送'));
      onClose();
    } catch {
      // the http client showed why (offline, no permission)
    } finally {
      setSending(null);
    }
  };
  const c = element?.config;
  const state =
    view?.bound && view.quality === 'live'
      ? view.active
        ? t('switch.isOn', '当前：开')
        : t('switch.isOff', '当前：关')
      : null;
  return (
    <Modal
      open={element !== null}
      title={c?.label || t('switch.title', '开关')}
      onCancel={onClose}
      destroyOnHidden
      data-testid="switch-dialog"
      footer={
        // on a phone the buttons wrap: kept to the right, where the dialog's footer puts them
        <Space wrap style={{ justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('common.cancel', '取消')}</Button>
          {c?.offCommand ? (
            <Button
              danger
              loading={sending === 'off'}
              disabled={sending !== null}
              onClick={() => send('off')}
              data-testid="switch-off"
            >
              {t('switch.off', '关（{{command}}）', { command: c.offCommand })}
            </Button>
          ) : null}
          {c?.onCommand ? (
            <Button
              type="primary"
              loading={sending === 'on'}
              disabled={sending !== null}
              onClick={() => send('on')}
              data-testid="switch-on"
            >
              {t('switch.on', '开（{{command}}）', { command: c.onCommand })}
            </Button>
          ) : null}
        </Space>
      }
    >
      {c && !c.onCommand && !c.offCommand ? (
        <Typography.Paragraph type="warning" data-testid="switch-no-command">
          {t('switch.noCommand', '此开关在这台设备上没有对应的指令，无法操作。')}
        </Typography.Paragraph>
      ) : (
        <Typography.Paragraph data-testid="switch-confirm">
          {c?.confirm || t('switch.defaultConfirm', '确定向设备发送此指令吗？')}
        </Typography.Paragraph>
      )}
      {state ? <Typography.Text type="secondary">{state}</Typography.Text> : null}
    </Modal>
  );
}
