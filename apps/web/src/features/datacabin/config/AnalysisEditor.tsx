import type { AnalysisAssignment } from '@platform/domain';
import {
  Alert,
  App,
  Button,
  DatePicker,
  Drawer,
  Form,
  Grid,
  Input,
  Radio,
  Space,
  Switch,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPickerValue, toPickerValue } from '../../../shared/time';
import { type AnalysisJob, cabinApi, type DataItem } from '../api';
import { errorText } from '../cabin';
import { AssignmentEditor, assignmentComplete } from './AssignmentEditor';

interface Draft {
  name: string;
  enabled: boolean;
  schedule: 'cron' | 'once';
  cron: string;
  runAt: Dayjs | null;
  assignments: AnalysisAssignment[];
}

const fresh = (): Draft => ({
  name: '',
  enabled: true,
  schedule: 'cron',
  cron: '0 0 1 * * ?',
  runAt: null,
  assignments: [],
});

/** Create or edit an intelligent analysis job of the item. */
export function AnalysisEditor({
  item,
  job,
  open,
  onClose,
  onSaved,
}: {
  item: DataItem;
  job: AnalysisJob | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('datacabin');
  const { message } = App.useApp();
  const screens = Grid.useBreakpoint();
  const [draft, setDraft] = useState<Draft>(fresh);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setProblem(null);
    setDraft(
      job
        ? {
            name: job.name,
            enabled: job.enabled,
            schedule: job.cron ? 'cron' : 'once',
            cron: job.cron ?? '',
            runAt: job.runAt ? toPickerValue(job.runAt) : null,
            assignments: job.assignments,
          }
        : fresh(),
    );
  }, [open, job]);

  const set = (change: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...change }));
    setProblem(null);
  };

  const save = async () => {
    const name = draft.name.trim();
    const fail = (text: string) => {
      setProblem(text);
      message.error(text);
    };
    if (!name) return fail(errorText('nameRequired'));
    if (draft.schedule === 'cron' && !draft.cron.trim())
      return fail(t('analysis.cronRequired', '请输入 cron 表达式'));
    if (draft.schedule === 'once' && !draft.runAt) return fail(t('analysis.runAtRequired', '请选择执行时间'));
    if (draft.assignments.length === 0) return fail(t('analysis.assignRequired', '请至少为一个字段赋值'));
    if (!draft.assignments.every(assignmentComplete)) return fail(errorText('typeEntriesIncomplete'));
    setSaving(true);
    try {
      const envelope = await cabinApi.saveAnalysis({
        itemId: item.id,
        ...(job ? { id: job.id } : {}),
        name,
        enabled: draft.enabled,
        ...(draft.schedule === 'cron'
          ? { cron: draft.cron.trim() }
          : { runAt: fromPickerValue(draft.runAt as Dayjs) }),
        type: job?.type ?? 'record',
        assignments: draft.assignments,
      });
      message.success(envelope.message);
      onSaved();
      onClose();
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  const assignmentOf = (key: string) => draft.assignments.find((a) => a.field === key);
  const setAssignment = (key: string, value: AnalysisAssignment | undefined) =>
    set({
      assignments: [...draft.assignments.filter((a) => a.field !== key), ...(value ? [value] : [])],
    });

  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={screens.md ? 820 : '100%'}
      title={job ? t('analysis.edit', '编辑智能分析') : t('analysis.add', '新增智能分析')}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.cancel', '取消')}</Button>
          <Button type="primary" loading={saving} onClick={save} data-testid="analysis-save">
            {t('common.save', '保存')}
          </Button>
        </Space>
      }
    >
      <Form layout="vertical" data-testid="analysis-editor">
        {problem && <Alert type="error" showIcon className="dc-gap" title={problem} />}
        <Space wrap size="large" align="start">
          <Form.Item label={t('analysis.name', '名称')} required>
            <Input
              style={{ width: 260 }}
              value={draft.name}
              maxLength={25}
              onChange={(e) => set({ name: e.target.value })}
              data-testid="analysis-name"
            />
          </Form.Item>
          <Form.Item label={t('analysis.enabled', '启用')}>
            <Switch checked={draft.enabled} onChange={(enabled) => set({ enabled })} />
          </Form.Item>
        </Space>
        <Form.Item label={t('analysis.schedule', '执行方式')}>
          <Radio.Group
            value={draft.schedule}
            onChange={(e) => set({ schedule: e.target.value as Draft['schedule'] })}
            options={[
              { value: 'cron', label: t('analysis.cron', '周期（cron）') },
              { value: 'once', label: t('analysis.once', '单次执行') },
            ]}
          />
        </Form.Item>
        {draft.schedule === 'cron' ? (
          <Form.Item
            label={t('analysis.cronExpr', 'cron 表达式')}
            extra={t(
              'analysis.cronHint',
              'Quartz 格式：秒 分 时 日 月 周 [年]，例如 “0 0 1 * * ?” 每天 01:00，“0 */15 * * * ?” 每 15 分钟。日与周其中一个须为 ?。',
            )}
          >
            <Input
              style={{ maxWidth: 320, fontFamily: 'monospace' }}
              value={draft.cron}
              onChange={(e) => set({ cron: e.target.value })}
              data-testid="analysis-cron"
            />
          </Form.Item>
        ) : (
          <Form.Item label={t('analysis.runAt', '执行时间')}>
            <DatePicker showTime value={draft.runAt} onChange={(runAt) => set({ runAt })} />
          </Form.Item>
        )}
        <Typography.Title level={5}>{t('analysis.assignments', '字段赋值')}</Typography.Title>
        {item.fields.length === 0 && (
          <Typography.Text type="secondary">{t('analysis.noFields', '此数据项还没有字段')}</Typography.Text>
        )}
        {item.fields.map((field) => (
          <AssignmentEditor
            key={field.key}
            field={field}
            value={assignmentOf(field.key)}
            onChange={(value) => setAssignment(field.key, value)}
          />
        ))}
      </Form>
    </Drawer>
  );
}
