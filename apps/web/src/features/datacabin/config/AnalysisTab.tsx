import {
  DeleteOutlined,
  EditOutlined,
  HistoryOutlined,
  PlayCircleOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { App, Button, Drawer, Grid, Popconfirm, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePaging } from '../../../shared/paging';
import { formatTime } from '../../../shared/time';
import {
  type AnalysisJob,
  type AnalysisRun,
  cabinApi,
  type DataItem,
  useAnalysisJobs,
  useAnalysisLog,
} from '../api';
import { AnalysisEditor } from './AnalysisEditor';

const when = (value: string | null | undefined) => (value ? formatTime(value) : '—');
const STATUS_COLORS: Record<string, string> = { ok: 'green', failed: 'red', running: 'blue' };

function RunLog({ item, job, onClose }: { item: DataItem; job: AnalysisJob | null; onClose: () => void }) {
  const { t } = useTranslation('datacabin');
  const screens = Grid.useBreakpoint();
  const { paging, pagination } = usePaging();
  const log = useAnalysisLog(item.id, job?.id ?? null, paging);
  const columns: ColumnsType<AnalysisRun> = [
    { title: t('analysis.fireTime', '触发时间'), dataIndex: 'fireTime', render: when, width: 170 },
    {
      title: t('analysis.status', '状态'),
      dataIndex: 'status',
      width: 90,
      render: (status: string) => <Tag color={STATUS_COLORS[status]}>{t(`runStatus.${status}`, status)}</Tag>,
    },
    { title: t('analysis.finishedAt', '完成时间'), dataIndex: 'finishedAt', render: when, width: 170 },
    {
      title: t('analysis.message', '信息'),
      dataIndex: 'message',
      ellipsis: true,
      render: (m: string | null) => m ?? '—',
    },
  ];
  return (
    <Drawer
      open={job != null}
      onClose={onClose}
      width={screens.md ? 720 : '100%'}
      title={t('analysis.logOf', '运行记录：{{name}}', { name: job?.name ?? '' })}
      destroyOnHidden
    >
      <Table<AnalysisRun>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={log.data?.list ?? []}
        loading={log.isFetching}
        pagination={pagination(log.data)}
        scroll={{ x: 600 }}
        locale={{ emptyText: t('analysis.noRuns', '还没有运行记录') }}
      />
    </Drawer>
  );
}

/** Intelligent analysis jobs of the item: list, edit, run now, run log. */
export function AnalysisTab({ item, editable }: { item: DataItem; editable: boolean }) {
  const { t } = useTranslation('datacabin');
  const { message } = App.useApp();
  const jobs = useAnalysisJobs(item.id);
  const [editing, setEditing] = useState<{ job: AnalysisJob | null } | null>(null);
  const [logOf, setLogOf] = useState<AnalysisJob | null>(null);
  const [running, setRunning] = useState<number | null>(null);

  const act = async (action: () => Promise<{ message: string }>) => {
    try {
      const envelope = await action();
      message.success(envelope.message);
      await jobs.refetch();
    } catch {
      // the http client showed the error
    }
  };

  const columns: ColumnsType<AnalysisJob> = [
    { title: t('analysis.name', '名称'), dataIndex: 'name' },
    {
      title: t('analysis.status', '状态'),
      dataIndex: 'enabled',
      width: 90,
      render: (on: boolean) => (
        <Tag color={on ? 'green' : 'default'}>
          {on ? t('analysis.on', '启用') : t('analysis.off', '停用')}
        </Tag>
      ),
    },
    {
      title: t('analysis.schedule', '执行方式'),
      key: 'schedule',
      render: (_, job) =>
        job.cron ? (
          <Typography.Text code>{job.cron}</Typography.Text>
        ) : (
          t('analysis.onceAt', '单次：{{at}}', { at: when(job.runAt) })
        ),
    },
    { title: t('analysis.nextRun', '下次执行'), dataIndex: 'nextRunAt', width: 170, render: when },
    { title: t('analysis.lastRun', '上次执行'), dataIndex: 'lastRunAt', width: 170, render: when },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: 150,
      render: (_, job) => (
        <Space size={0}>
          <Tooltip title={t('analysis.runNow', '立即运行')}>
            <Button
              type="text"
              size="small"
              icon={<PlayCircleOutlined />}
              disabled={!editable}
              loading={running === job.id}
              aria-label={t('analysis.runNow', '立即运行')}
              onClick={async () => {
                setRunning(job.id);
                await act(() => cabinApi.runAnalysis(item.id, job.id));
                setRunning(null);
              }}
            />
          </Tooltip>
          <Tooltip title={t('analysis.log', '运行记录')}>
            <Button
              type="text"
              size="small"
              icon={<HistoryOutlined />}
              aria-label={t('analysis.log', '运行记录')}
              onClick={() => setLogOf(job)}
            />
          </Tooltip>
          <Button
            type="text"
            size="small"
            icon={<EditOutlined />}
            disabled={!editable}
            aria-label={t('common.edit', '编辑')}
            onClick={() => setEditing({ job })}
          />
          <Popconfirm
            title={t('analysis.deleteConfirm', '删除智能分析“{{name}}”？', { name: job.name })}
            okText={t('common.delete', '删除')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.cancel', '取消')}
            disabled={!editable}
            onConfirm={() => act(() => cabinApi.deleteAnalysis(item.id, job.id))}
          >
            <Button
              type="text"
              size="small"
              danger
              icon={<DeleteOutlined />}
              disabled={!editable}
              aria-label={t('common.delete', '删除')}
            />
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="analysis-tab">
      <div className="dc-tab-actions">
        <Button
          type="primary"
          icon={<PlusOutlined />}
          disabled={!editable}
          onClick={() => setEditing({ job: null })}
          data-testid="analysis-add"
        >
          {t('analysis.add', '新增智能分析')}
        </Button>
      </div>
      <Table<AnalysisJob>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={jobs.data ?? []}
        loading={jobs.isFetching}
        pagination={false}
        scroll={{ x: 860 }}
        locale={{
          emptyText: t(
            'analysis.empty',
            '还没有智能分析任务。任务按计划从其他数据项取值，生成本数据项的记录。',
          ),
        }}
      />
      <AnalysisEditor
        item={item}
        job={editing?.job ?? null}
        open={editing != null}
        onClose={() => setEditing(null)}
        onSaved={() => void jobs.refetch()}
      />
      <RunLog item={item} job={logOf} onClose={() => setLogOf(null)} />
    </div>
  );
}
