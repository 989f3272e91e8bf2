/**
 * A device's configuration screen live (/showConfigurationTool/:deviceId): scaled to the page,
 * the latest values polled every few seconds, each element drawn through evaluateElement. A
 * banner says when the device is offline or the values cannot be fetched; values then grey as
 * they age, never passing for live. Switches ask their confirmation; read-only people see them
 * disabled.
 */
import { EditOutlined } from '@ant-design/icons';
import type { ElementView } from '@platform/domain';
import { Button, Result, Skeleton, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { PageHeader } from '../../../shared/PageHeader';
import { useScreen, useScreenValues } from '../api';
import { LiveBanners } from '../components/LiveBanners';
import { LiveScreen } from '../components/LiveScreen';
import { SwitchDialog, type SwitchElement } from '../components/SwitchDialog';
import { mergeSamples, useLivePush, useServerNow } from '../live';
import { screenPaths } from '../paths';
import '../screens.css';

export default function ScreenShowPage() {
  const { t } = useTranslation('screens');
  const navigate = useNavigate();
  const deviceId = Number(useParams().deviceId);
  const screen = useScreen(deviceId);
  const body = screen.data?.screen?.body ?? null;
  const live = useLivePush(deviceId, body !== null);
  const values = useScreenValues(deviceId, body !== null);
  const samples = useMemo(() => mergeSamples(values.data, live.pushed), [values.data, live.pushed]);
  const now = useServerNow(values.data?.at, values.dataUpdatedAt);
  const [pressed, setPressed] = useState<{ element: SwitchElement; view: ElementView } | null>(null);

  if (screen.isLoading) return <Skeleton active className="scr-page" />;
  const view = screen.data;
  if (!view)
    return (
      <Result
        status="404"
        title={t('show.missing', '设备不存在或您无权查看')}
        data-testid="screen-missing"
        extra={<Button onClick={() => screen.refetch()}>{t('common.retry', '重试')}</Button>}
      />
    );
  const online = values.data?.online ?? view.device.online;
  const editButton = view.canEdit ? (
    <Button
      icon={<EditOutlined />}
      onClick={() => navigate(screenPaths.edit(deviceId))}
      data-testid="screen-edit-link"
    >
      {t('show.edit', '编辑组态')}
    </Button>
  ) : null;

  return (
    <div className="scr-page" data-testid="screen-show-page" data-pushed={live.watching ? '1' : '0'}>
      <PageHeader
        title={
          <Space wrap size={8}>
            <span>{t('show.title', '组态画面')}</span>
            <Typography.Text type="secondary" className="scr-device-name">
              {view.device.name}
            </Typography.Text>
            <Tag color={online ? 'green' : 'default'} data-testid="screen-online">
              {online ? t('show.online', '在线') : t('show.offline', '离线')}
            </Tag>
          </Space>
        }
        extra={editButton}
      />
      {!body ? (
        <Result
          status="info"
          title={t('show.empty', '此设备还没有组态画面')}
          subTitle={view.canEdit ? t('show.emptyHint', '编辑组态即可创建一个。') : null}
          extra={editButton}
          data-testid="screen-empty"
        />
      ) : (
        <>
          <LiveBanners
            online={online}
            failed={values.isError}
            hidden={values.data?.hidden ?? 0}
            offlineText={t(
              'show.offlineBanner',
              '设备离线：画面显示的是最后收到的数据，过期的数值以灰色显示。',
            )}
            testIdPrefix="screen"
          />
          <div className="scr-live-box">
            <LiveScreen
              body={body}
              samples={samples}
              now={now}
              switchEnabled={view.canEdit}
              label={`${t('show.title', '组态画面')} ${view.device.name}`}
              onSwitch={(element, v) => setPressed({ element, view: v })}
            />
          </div>
          {!view.canEdit && body.elements.some((e) => e.type === 'switch') ? (
            <Typography.Text type="secondary" data-testid="screen-readonly">
              {t('show.readOnly', '您对此设备只有查看权限，开关不可操作。')}
            </Typography.Text>
          ) : null}
        </>
      )}
      <SwitchDialog
        deviceId={deviceId}
        element={pressed?.element ?? null}
        view={pressed?.view ?? null}
        onClose={() => setPressed(null)}
      />
    </div>
  );
}
