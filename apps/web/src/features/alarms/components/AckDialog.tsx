import { App, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { alarmApi } from '../api';

/** Acknowledge an alarm with a comment (the log and the wall); `onDone` after the server agreed. */
export function AckDialog(props: { alarmId: number | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('alarms');
  const { message } = App.useApp();
  const [comment, setComment] = useState('');
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (props.alarmId !== null) setComment('');
  }, [props.alarmId]);
  return (
    <Modal
      open={props.alarmId !== null}
      title={t('log.acknowledge')}
      okText={t('log.acknowledge')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: comment.trim() === '' }}
      confirmLoading={saving}
      onCancel={props.onClose}
      onOk={async () => {
        if (props.alarmId === null) return;
        setSaving(true);
        try {
          const res = await alarmApi.acknowledge(props.alarmId, comment.trim());
          message.success(res.message);
          props.onClose();
          props.onDone();
        } catch {
          // the http client reported it; the dialog stays open with the comment
        } finally {
          setSaving(false);
        }
      }}
    >
      <Input.TextArea
        aria-label={t('fields.comment')}
        placeholder={t('log.commentPlaceholder')}
        maxLength={500}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
      />
    </Modal>
  );
}
