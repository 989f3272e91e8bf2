import { CarryOutOutlined } from '@ant-design/icons';
import { Card, Empty, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { usePaging } from '../../../shared/paging';
import { formatMinute } from '../../../shared/time';
import { type MyAssignment, useMyAssignments } from '../api';

const STATUS_COLOR: Record<string, string> = { pending: 'blue', done: 'green', overdue: 'red' };

/** Work assigned to the person by smart tasks (task automation). */
export default function MyAssignmentPage() {
  const { t } = useTranslation('user');
  const { paging, pagination } = usePaging();
  const assignments = useMyAssignments(paging);

  const columns: ColumnsType<MyAssignment> = [
    { title: t('assignments.name', '任务名称'), dataIndex: 'name', ellipsis: true },
    {
      title: t('assignments.status', '状态'),
      dataIndex: 'status',
      width: 120,
      render: (status: string) => (
        <Tag color={STATUS_COLOR[status] ?? 'default'}>{t(`assignments.statuses.${status}`, status)}</Tag>
      ),
    },
    {
      title: t('assignments.dueAt', '截止时间'),
      dataIndex: 'dueAt',
      width: 180,
      render: (value: string | null) => (value ? formatMinute(value) : '—'),
    },
  ];

  return (
    <Card variant="borderless" title={t('assignments.title', '我的任务')} data-testid="myassignment-page">
      <Table<MyAssignment>
        rowKey="id"
        columns={columns}
        dataSource={assignments.data?.list ?? []}
        loading={assignments.isFetching}
        pagination={pagination(assignments.data)}
        scroll={{ x: 560 }}
        locale={{
          emptyText: (
            <Empty
              image={<CarryOutOutlined style={{ fontSize: 48, color: '#bfbfbf' }} />}
              styles={{ image: { height: 56 } }}
              description={
                <Typography.Text type="secondary" data-testid="assignments-empty">
                  {t(
                    'assignments.empty',
                    '暂无分配给您的任务。任务来自“智能任务”：当任务定义或可执行任务把工作分配给您时，会显示在这里。',
                  )}
                </Typography.Text>
              }
            />
          ),
        }}
      />
    </Card>
  );
}
