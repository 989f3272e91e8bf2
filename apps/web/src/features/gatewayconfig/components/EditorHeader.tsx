import {
  AppstoreAddOutlined,
  CloudUploadOutlined,
  HistoryOutlined,
  SafetyCertificateOutlined,
  SaveOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { CONFIG_TEMPLATE_IDS, type ConfigTemplateId } from '@platform/domain';
import { App, Button, Dropdown, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../../../app/store/session';
import type { ConfigView, DeviceState } from '../api';
import { configPaths } from '../paths';

interface Props {
  view: ConfigView;
  dtu: boolean;
  dirty: boolean;
  baseVersion: number | null;
  busy: 'save' | 'check' | 'push' | null;
  readOnly: boolean;
  editable: boolean;
  canPush: boolean;
  viewingVersion: number | null;
  onCheck: () => void;
  onSave: () => void;
  onPush: () => void;
  onHistory: () => void;
  onTemplate: (id: ConfigTemplateId) => void;
  onBackToEdit: () => void;
}

/** Why Push is disabled, or null when it is not. */
export function pushBlocked(view: DeviceState, canPush: boolean, t: (key: string) => string): string | null {
  if (!canPush) return t('editor.pushNeedsCode');
  if (view.device.level < 2) return t('editor.pushNeedsWrite');
  if (!view.device.bound) return t('editor.pushNotBound');
  if (!view.device.online) return t('editor.pushOffline');
  return null;
}

/** The gateway (name, serial number, online, versions) and the editor's actions. */
export function EditorHeader(props: Props) {
  const { view, dtu, dirty, baseVersion, busy, readOnly, editable, canPush, viewingVersion } = props;
  const { t } = useTranslation('gatewayconfig');
  const { modal } = App.useApp();
  const { user } = useSession();
  const navigate = useNavigate();
  const device = view.device;
  const blocked =
    viewingVersion != null
      ? t('history.viewing', { version: viewingVersion })
      : pushBlocked(view, canPush, t);
  const confirmPush = () =>
    modal.confirm({
      title: t('push.title'),
      content: (
        <>
          <p>{t('push.confirm', { name: device.name })}</p>
          <Typography.Text type="secondary">
            {t('push.confirmHint', { seconds: view.confirmWithin })}
          </Typography.Text>
        </>
      ),
      okText: t('editor.push'),
      onOk: props.onPush,
    });
  return (
    <div className="gc-header">
      <div className="gc-title">
        <Typography.Title level={4} className="gc-title-text">
          {dtu ? t('editor.dtuTitle') : t('editor.title')} · {device.name}
        </Typography.Title>
        <Space size={[4, 4]} wrap>
          <Typography.Text type="secondary" copyable>
            {device.serialNumber}
          </Typography.Text>
          {!device.bound ? (
            <Tag>{t('editor.notBound')}</Tag>
          ) : device.online ? (
            <Tag color="success" data-testid="gc-online">
              {t('editor.online')}
            </Tag>
          ) : (
            <Tag color="default" data-testid="gc-offline">
              {t('editor.offline')}
            </Tag>
          )}
          <Tag color="blue" data-testid="gc-version">
            {baseVersion == null ? t('editor.neverSaved') : t('editor.version', { version: baseVersion })}
          </Tag>
          {dirty && (
            <Tag color="orange" data-testid="gc-dirty">
              {t('editor.unsaved')}
            </Tag>
          )}
          <Typography.Text type="secondary" className="gc-small">
            {device.runningVersion != null
              ? t('editor.running', { version: device.runningVersion })
              : t('editor.runningUnknown')}
          </Typography.Text>
        </Space>
      </div>
      <Space size={8} wrap className="gc-actions">
        {!readOnly && (
          <Dropdown
            trigger={['click']}
            menu={{
              items: CONFIG_TEMPLATE_IDS.map((id) => ({ key: id, label: t(`editor.templates.${id}`) })),
              onClick: ({ key }) => props.onTemplate(key as ConfigTemplateId),
            }}
          >
            <Button icon={<AppstoreAddOutlined />}>{t('editor.template')}</Button>
          </Dropdown>
        )}
        <Button
          icon={<SafetyCertificateOutlined />}
          loading={busy === 'check'}
          onClick={props.onCheck}
          data-testid="gc-check"
        >
          {t('editor.check')}
        </Button>
        {editable && !readOnly && (
          <Button
            icon={<SaveOutlined />}
            loading={busy === 'save'}
            onClick={props.onSave}
            data-testid="gc-save"
          >
            {t('editor.save')}
          </Button>
        )}
        <Button icon={<HistoryOutlined />} onClick={props.onHistory} data-testid="gc-history">
          {t('editor.history')}
        </Button>
        <Tooltip title={blocked}>
          <Button
            type="primary"
            icon={<CloudUploadOutlined />}
            disabled={blocked != null}
            loading={busy === 'push'}
            onClick={confirmPush}
            data-testid="gc-push-button"
          >
            {t('editor.push')}
          </Button>
        </Tooltip>
        {user?.menuCode.includes('dm_list') && (
          <Button icon={<UnorderedListOutlined />} onClick={() => navigate(configPaths.pushes(device))}>
            {t('editor.pushPage')}
          </Button>
        )}
      </Space>
    </div>
  );
}
