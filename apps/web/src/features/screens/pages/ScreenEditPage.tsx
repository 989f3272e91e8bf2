/**
 * The configuration screen editor of a device (/editConfigurationTool/:deviceId and …1): the
 * screen editor (components/ScreenEditor.tsx) over the device's points and commands. It edits
 * only under the lease; held by someone else it is read-only with who and until when.
 */
import { DesktopOutlined } from '@ant-design/icons';
import { emptyScreen, type ScreenBody } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Grid, Result, Skeleton, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { formatTime } from '../../../shared/time';
import { type ScreenView, screenApi, screenKeys, useScreen } from '../api';
import { ScreenEditor } from '../components/ScreenEditor';
import { type LeaseState, leaseRefusal, useLease } from '../lease';
import { screenPaths } from '../paths';
import '../screens.css';

function LeaseBanner({ state, onRetry }: { state: LeaseState; onRetry: () => void }) {
  const { t } = useTranslation('screens');
  const retry = (
    <Button size="small" onClick={onRetry} data-testid="lease-retry">
      {t('lease.retry', '重试')}
    </Button>
  );
  if (state.kind === 'held')
    return (
      <Alert
        type="warning"
        showIcon
        data-testid="lease-held"
        title={t(
          'lease.held',
          '{{user}} 正在编辑此画面（若其未继续编辑，至 {{until}} 释放）。您现在只能查看。',
          {
            user: state.holder,
            until: state.expiresAt ? formatTime(state.expiresAt) : '?',
          },
        )}
        action={retry}
      />
    );
  if (state.kind === 'lost')
    return (
      <Alert
        type="error"
        showIcon
        data-testid="lease-lost"
        title={t('lease.lost', '您的编辑租约已结束（他人已开始编辑），修改无法保存。重新获取后可继续。')}
        action={retry}
      />
    );
  if (state.kind === 'failed')
    return <Alert type="error" showIcon data-testid="lease-failed" title={state.message} action={retry} />;
  return null;
}

function Editor({ view, deviceId }: { view: ScreenView; deviceId: number }) {
  const { t } = useTranslation('screens');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const lease = useLease(deviceId, view.canEdit);
  const [initial] = useState(() => view.screen?.body ?? emptyScreen());

  const save = async (body: ScreenBody) => {
    if (lease.state.kind !== 'mine') return false;
    try {
      const envelope = await screenApi.save(deviceId, lease.state.leaseId, body);
      message.success(envelope.message || t('save.done', '已保存'));
      void queryClient.invalidateQueries({ queryKey: screenKeys.one(deviceId) });
      return true;
    } catch (error) {
      const refusal = leaseRefusal(error);
      if (refusal?.kind === 'lost' || refusal?.kind === 'held') {
        lease.lose();
        message.error((error as Error).message);
        return false;
      }
      throw error;
    }
  };

  return (
    <ScreenEditor
      initial={initial}
      stored={view.screen !== null}
      points={view.points}
      commands={view.commands}
      readOnly={lease.state.kind !== 'mine'}
      lease={lease.state.kind}
      title={t('edit.title', '编辑组态')}
      subtitle={view.device.name}
      tags={
        view.screen ? <Tag>v{view.screen.version}</Tag> : <Tag color="blue">{t('edit.new', '新画面')}</Tag>
      }
      status={
        lease.state.kind === 'mine' ? (
          <Tag color="green" data-testid="lease-mine">
            {t('lease.mine', '编辑中')}
          </Tag>
        ) : null
      }
      actions={
        <Button
          icon={<DesktopOutlined />}
          onClick={() => navigate(screenPaths.show(deviceId))}
          data-testid="screen-show-link"
        >
          {t('edit.display', '查看画面')}
        </Button>
      }
      banner={
        !view.canEdit ? (
          <Alert
            type="info"
            showIcon
            data-testid="screen-no-write"
            title={t('edit.noWrite', '您对此设备只有查看权限，不能编辑组态。')}
          />
        ) : (
          <LeaseBanner state={lease.state} onRetry={() => void lease.retry()} />
        )
      }
      onSave={save}
    />
  );
}

export default function ScreenEditPage() {
  const { t } = useTranslation('screens');
  const navigate = useNavigate();
  const deviceId = Number(useParams().deviceId);
  const screens = Grid.useBreakpoint();
  const screen = useScreen(deviceId);
  if (screen.isLoading) return <Skeleton active className="scr-page" />;
  if (!screen.data)
    return (
      <Result
        status="404"
        title={t('show.missing', '设备不存在或您无权查看')}
        extra={<Button onClick={() => screen.refetch()}>{t('common.retry', '重试')}</Button>}
      />
    );
  if (screens.md === false)
    return (
      <Result
        status="info"
        title={t('edit.narrow', '编辑组态需要更宽的屏幕')}
        subTitle={t('edit.narrowHint', '请在电脑上编辑；在手机上可以查看画面。')}
        data-testid="screen-edit-narrow"
        extra={
          <Button type="primary" onClick={() => navigate(screenPaths.show(deviceId))}>
            {t('edit.display', '查看画面')}
          </Button>
        }
      />
    );
  // the editor keeps its own state from the screen it opened with
  return <Editor view={screen.data} deviceId={deviceId} />;
}
