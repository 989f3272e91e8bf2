/** A carousel's boards in order with their seconds (configBoardPlay; 'new' creates one). */
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { checkName, PLAY_LIMITS } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Input, InputNumber, Select, Space, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { errorText } from '../../datacabin/cabin';
import { boardApi, boardKeys, useBoards, usePlay } from '../api';
import { PLAYS_PATH, playPath } from '../paths';

interface Entry {
  /** stable React key of the row */
  key: number;
  boardId: number | null;
  seconds: number;
}
let nextKey = 1;
const newEntry = (boardId: number | null = null, seconds = 30): Entry => ({
  key: nextKey++,
  boardId,
  seconds,
});

export default function PlayConfigPage() {
  const { t } = useTranslation('boards');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const raw = useParams().boardPlayId;
  const id = raw === 'new' ? null : Number(raw);
  const play = usePlay(id ?? 0);
  const boards = useBoards();
  const [name, setName] = useState('');
  const [entries, setEntries] = useState<Entry[]>(() => [newEntry()]);
  const [saving, setSaving] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);

  useEffect(() => {
    if (play.data) {
      setName(play.data.name);
      setEntries(play.data.entries.map((e) => newEntry(e.boardId, e.seconds)));
    }
  }, [play.data]);

  if (id != null && play.isLoading) return <Spin style={{ margin: 48 }} />;
  const options = (boards.data ?? [])
    .filter((b) => b.type === 'dashboard')
    .map((b) => ({ value: b.id, label: b.name }));
  const set = (i: number, change: Partial<Entry>) =>
    setEntries((list) => list.map((e, j) => (j === i ? { ...e, ...change } : e)));
  const move = (i: number, by: number) =>
    setEntries((list) => {
      const next = [...list];
      const [e] = next.splice(i, 1);
      next.splice(Math.max(0, Math.min(next.length, i + by)), 0, e!);
      return next;
    });

  const save = async (thenPlay: boolean) => {
    const broken = checkName(name.trim());
    setNameError(broken ? errorText(broken) : null);
    if (broken) return;
    setSaving(true);
    try {
      const envelope = await boardApi.savePlay({
        id,
        name: name.trim(),
        entries: entries
          .filter((e) => e.boardId != null)
          .map((e) => ({ boardId: e.boardId!, seconds: e.seconds })),
      });
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: boardKeys.plays });
      navigate(thenPlay ? playPath(envelope.data.id) : PLAYS_PATH);
    } catch {
      // the http client showed the error (naming the field)
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card
      title={id == null ? t('plays.new', '新建轮播') : t('plays.edit', '编辑')}
      variant="borderless"
      className="play-config"
    >
      <Space direction="vertical" style={{ width: '100%', maxWidth: 720 }}>
        <Typography.Text>{t('plays.name', '轮播名称')}</Typography.Text>
        <Input
          value={name}
          maxLength={25}
          showCount
          status={nameError ? 'error' : undefined}
          onChange={(e) => setName(e.target.value)}
          data-testid="play-name"
        />
        {nameError ? <Typography.Text type="danger">{nameError}</Typography.Text> : null}
        <Typography.Text>{t('plays.boards', '看板（秒）')}</Typography.Text>
        {entries.length === 0 ? <Empty description={t('plays.noBoards', '请添加看板')} /> : null}
        {entries.map((e, i) => (
          <Space key={e.key} wrap data-testid={`play-entry-${i}`}>
            <Select
              style={{ width: 260 }}
              value={e.boardId ?? undefined}
              placeholder={t('plays.pickBoard', '选择看板')}
              options={options}
              onChange={(boardId) => set(i, { boardId })}
              showSearch
              optionFilterProp="label"
              data-testid={`play-board-${i}`}
            />
            <InputNumber
              min={PLAY_LIMITS.secondsMin}
              max={PLAY_LIMITS.secondsMax}
              precision={0}
              value={e.seconds}
              onChange={(v) => v != null && set(i, { seconds: v })}
              addonAfter={t('plays.seconds', '秒')}
              data-testid={`play-seconds-${i}`}
            />
            <Button
              icon={<ArrowUpOutlined />}
              disabled={i === 0}
              onClick={() => move(i, -1)}
              aria-label={t('designer.forward', '上移')}
            />
            <Button
              icon={<ArrowDownOutlined />}
              disabled={i === entries.length - 1}
              onClick={() => move(i, 1)}
              aria-label={t('designer.backward', '下移')}
            />
            <Button
              danger
              icon={<DeleteOutlined />}
              onClick={() => setEntries((list) => list.filter((_, j) => j !== i))}
              aria-label={t('common.delete', '删除')}
            />
          </Space>
        ))}
        <Button
          icon={<PlusOutlined />}
          disabled={entries.length >= PLAY_LIMITS.entries}
          onClick={() => setEntries((list) => [...list, newEntry()])}
          data-testid="play-add-board"
        >
          {t('plays.addBoard', '添加看板')}
        </Button>
        <Space>
          <Button type="primary" loading={saving} onClick={() => save(false)} data-testid="play-save">
            {t('designer.save', '保存')}
          </Button>
          <Button loading={saving} onClick={() => save(true)} data-testid="play-save-play">
            {t('plays.saveAndPlay', '保存并播放')}
          </Button>
        </Space>
      </Space>
    </Card>
  );
}
