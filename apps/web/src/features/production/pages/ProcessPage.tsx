import { ArrowLeftOutlined } from '@ant-design/icons';
import type { ScheduleStatus } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Card, Col, Descriptions, Row, Skeleton, Space, Steps, Switch, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { LoadFailed } from '../../../shared/LoadFailed';
import { productionApi, productionKeys, type ScheduleDetail, useSchedule } from '../api';
import { PlanProgress } from '../components/PlanProgress';
import { ScheduleActions } from '../components/ScheduleActions';
import { SerialsCard } from '../components/SerialsCard';
import { StatusTag } from '../components/StatusTag';
import { UnitsCard } from '../components/UnitsCard';
import { productionPaths, usePlans } from '../model';
import '../production.css';

type StepStatus = 'wait' | 'process' | 'finish';

/** Every step of the plan reads the same: not begun, under way on the line, or done. */
const STEP_STATUS: Record<ScheduleStatus, StepStatus> = {
  planned: 'wait',
  inProduction: 'process',
  finished: 'finish',
  cancelled: 'wait',
};

/**
 * /productionManagement/process/:scheduleId/:status (pm_process): one plan, its steps and
 * counts, its start, finish or cancel (for those who plan, pm_scheduling); the units it made recorded by serial number (scanned or
 * pasted) and marked finished, chosen in the table or scanned. The status in the path is the
 * one the link was made with: the page shows the plan's status now.
 */
export default function ProcessPage() {
  const { t } = useTranslation('production');
  const id = Number(useParams().scheduleId);
  const detail = useSchedule(id);
  const plan = detail.data;
  const plans = usePlans();

  // back to the list it was opened from: the scheduling, or the process's own list of plans
  const back = (
    <Link
      to={plans ? productionPaths.scheduling : productionPaths.processPlans}
      data-testid="production-back"
    >
      <ArrowLeftOutlined /> {plans ? t('process.back') : t('process.backToPlans')}
    </Link>
  );

  if (!plan) {
    return (
      <Card variant="borderless" data-testid="production-process">
        {back}
        {detail.isError ? (
          <LoadFailed title={t('process.loadFailed')} onRetry={() => void detail.refetch()} />
        ) : (
          <Skeleton active />
        )}
      </Card>
    );
  }
  return <ProcessView plan={plan} back={back} plans={plans} />;
}

function ProcessView({ plan, back, plans }: { plan: ScheduleDetail; back: ReactNode; plans: boolean }) {
  const { t } = useTranslation('production');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [finished, setFinished] = useState(false);
  const open = plan.status === 'inProduction';
  const left = Math.max(0, plan.quantity - plan.recorded);

  const settle = async (call: Promise<{ message: string }>) => {
    try {
      message.success((await call).message);
    } finally {
      await queryClient.invalidateQueries({ queryKey: productionKeys.all });
    }
  };
  const finishUnits = (sns: string[]) => settle(productionApi.finishUnits(plan.id, sns));

  return (
    <div className="production-process" data-testid="production-process">
      <Card variant="borderless" className="production-card">
        {back}
        <div className="production-header production-plan-head">
          <div>
            <Typography.Title level={4} className="production-title">
              <span className="production-number" data-testid="production-plan-number">
                {plan.number}
              </span>{' '}
              <StatusTag status={plan.status} testId="production-plan-status" />
            </Typography.Title>
            <Typography.Text type="secondary">
              {plan.categoryName}
              {plan.model ? ` · ${plan.model}` : ''}
            </Typography.Text>
          </div>
          {plans ? (
            <Space wrap>
              <ScheduleActions plan={plan} testKey="plan" />
            </Space>
          ) : null}
        </div>
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 2, lg: 4 }}
          items={[
            { key: 'line', label: t('fields.line'), children: plan.line },
            {
              key: 'days',
              label: t('fields.days'),
              children: (
                <span className="production-number">
                  {plan.startOn} ~ {plan.endOn}
                </span>
              ),
            },
            { key: 'quantity', label: t('fields.quantity'), children: plan.quantity },
            {
              key: 'progress',
              label: t('fields.progress'),
              children: <PlanProgress plan={plan} />,
            },
            ...(plan.notes
              ? [{ key: 'notes', label: t('fields.notes'), span: 'filled' as const, children: plan.notes }]
              : []),
          ]}
        />
        <Steps
          className="production-steps"
          size="small"
          current={plan.steps.length}
          items={plan.steps.map((step) => ({ title: step, status: STEP_STATUS[plan.status] }))}
          data-testid="production-steps"
        />
      </Card>
      <Alert
        type="info"
        showIcon
        className="production-alert"
        title={
          <Trans
            t={t}
            i18nKey="process.stockHint"
            components={{
              entries: <Link to={productionPaths.entries} data-testid="production-entries-link" />,
            }}
          />
        }
      />
      {plan.status === 'planned' ? (
        <Alert type="warning" showIcon className="production-alert" title={t('record.notStarted')} />
      ) : null}
      {open ? (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={9}>
            <SerialsCard
              words="record"
              testPrefix="production-record"
              note={t('record.left', { count: left })}
              extra={
                <span className="production-switch">
                  <Switch
                    id="production-record-finished"
                    checked={finished}
                    onChange={setFinished}
                    size="small"
                    data-testid="production-record-finished"
                  />
                  <label htmlFor="production-record-finished">{t('record.finished')}</label>
                </span>
              }
              onSubmit={(sns) => settle(productionApi.record(plan.id, sns, finished))}
            />
            {plan.inProduction > 0 ? (
              <SerialsCard words="scan" testPrefix="production-finish" onSubmit={finishUnits} />
            ) : null}
          </Col>
          <Col xs={24} lg={15}>
            <UnitsCard plan={plan} onFinish={finishUnits} />
          </Col>
        </Row>
      ) : (
        <UnitsCard plan={plan} onFinish={finishUnits} />
      )}
    </div>
  );
}
