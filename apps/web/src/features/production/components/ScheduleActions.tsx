import { CheckCircleOutlined, PlayCircleOutlined, StopOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Popconfirm } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { productionApi, productionKeys, type Schedule, type ScheduleAction } from '../api';
import { actionsOf } from '../model';

const ICONS: Record<ScheduleAction, ReactNode> = {
  start: <PlayCircleOutlined />,
  finish: <CheckCircleOutlined />,
  cancel: <StopOutlined />,
};

/**
 * Start, finish and cancel of a plan, as its status allows, each asked for again. The server
 * decides: a refusal (units still in production, say) shows its message and changes nothing.
 * The buttons' data-testids are `production-${action}-${testKey}`.
 */
export function ScheduleActions({
  plan,
  testKey,
  link = false,
}: {
  plan: Schedule;
  testKey: string | number;
  /** a table row's link buttons, else the page's buttons */
  link?: boolean;
}) {
  const { t } = useTranslation('production');
  const { message } = App.useApp();
  const queryClient = useQueryClient();

  const act = async (action: ScheduleAction) => {
    try {
      const envelope = await productionApi.act(plan.id, action);
      message.success(envelope.message);
    } catch {
      // the http client showed the server's message; the plan may have moved meanwhile
    }
    await queryClient.invalidateQueries({ queryKey: productionKeys.all });
  };

  const confirmOf = (action: ScheduleAction) =>
    action === 'finish' && plan.inProduction > 0
      ? t('actions.finishUnfinished', { number: plan.number, count: plan.inProduction })
      : t(`actions.${action}Confirm`, { number: plan.number });

  return (
    <>
      {actionsOf(plan).map((action) => (
        <Popconfirm
          key={action}
          title={confirmOf(action)}
          okText={t(`actions.${action}`)}
          okButtonProps={{ danger: action === 'cancel' }}
          cancelText={t('common.back')}
          onConfirm={() => act(action)}
        >
          <Button
            type={link ? 'link' : action === 'cancel' ? 'default' : 'primary'}
            size={link ? 'small' : 'middle'}
            danger={action === 'cancel'}
            icon={link ? undefined : ICONS[action]}
            data-testid={`production-${action}-${testKey}`}
          >
            {t(`actions.${action}`)}
          </Button>
        </Popconfirm>
      ))}
    </>
  );
}
