/**
 * Binding a gateway (spec point 4; docs/devices.md, "Binding"): pick a cabin directory, type
 * the serial number and a name, press bind; then the dialog waits for the person at the
 * gateway to press its bind button, counting down the seconds the request has left. The end
 * comes from the live socket (the page's, handed in as `bindEvent`) or, should the socket be
 * away, from polling bindStatus; either way bindStatus has the last word and its message
 * ("Bound successfully"). A refusal stands beside the field it is about.
 */
import { FolderFilled } from '@ant-design/icons';
import { normalizeSerialNumber } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Flex, Form, Input, Modal, Progress, Result, Steps, TreeSelect, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, reportFailure } from '../../../app/http/client';
import { validated } from '../../../shared/validated';
import { useCabinTree } from '../../datacabin/api';
import { buildTree, cabinNameRule, can, errorText, type TreeNode } from '../../datacabin/cabin';
import { type BindStatus, deviceApi, deviceKeys } from '../api';
import { bindFieldOf } from '../form';
import type { BindEvent } from '../live';

interface Values {
  parentId?: number;
  serialNumber: string;
  name: string;
}

type Phase =
  | { kind: 'form' }
  | { kind: 'waiting'; requestId: string; serialNumber: string; name: string; endsAt: number; total: number }
  | { kind: 'bound'; name: string; deviceId: number | null; message: string }
  | { kind: 'expired' | 'cancelled'; serialNumber: string };

/** bindStatus is asked this often while the live socket is away, and now and then when it is up */
const POLL_MS = { live: 10_000, away: 2_000 };

const serialRule = (required: string) => ({
  required: true,
  validator: async (_rule: unknown, value: unknown) => {
    const text = typeof value === 'string' ? value.trim() : '';
    if (text === '') throw new Error(required);
    if (!normalizeSerialNumber(text)) throw new Error(errorText('serialNumberInvalid'));
  },
});

export function BindModal({
  open,
  bindEvent,
  live,
  onClose,
  onBound,
}: {
  open: boolean;
  /** the latest bind event of the page's live socket */
  bindEvent: BindEvent | null;
  /** whether the page's live socket is up (then polling is only a safety net) */
  live: boolean;
  onClose: () => void;
  onBound: (deviceId: number | null) => void;
}) {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const tree = useCabinTree();
  const [phase, setPhase] = useState<Phase>({ kind: 'form' });
  const [sending, setSending] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const checking = useRef(false);
  const askAgain = useRef(false);
  /** the request the dialog waits for; null once it ended or was given up */
  const waitingFor = useRef<string | null>(null);
  const recheck = useRef<(requestId: string) => Promise<void>>(async () => undefined);
  const bound = useRef(onBound);
  bound.current = onBound;

  useEffect(() => {
    if (open) {
      setPhase({ kind: 'form' });
      form.resetFields();
    }
  }, [open, form]);

  const directories = useMemo(() => {
    const convert = (nodes: TreeNode[]): DataNode[] =>
      nodes
        .filter((n) => n.type === 'directory')
        .map((n) => ({
          key: n.id,
          value: n.id,
          title: n.name,
          icon: <FolderFilled style={{ color: '#f5b83d' }} />,
          disabled: !can.write(n.level),
          children: convert(n.children),
        }));
    return convert(buildTree(tree.data ?? []));
  }, [tree.data]);

  /** bindStatus decides: waiting goes on, anything else ends the wait */
  const check = useCallback(
    async (requestId: string) => {
      // one question at a time; one asked meanwhile (a live event) is asked again after it
      if (checking.current) {
        askAgain.current = true;
        return;
      }
      if (waitingFor.current !== requestId) return;
      checking.current = true;
      try {
        const envelope = await deviceApi.bindStatus(requestId);
        const status: BindStatus = envelope.data;
        // a request that ended (or was left) is told once
        if (waitingFor.current !== requestId) return;
        if (status.state !== 'waiting') waitingFor.current = null;
        setPhase((current) => {
          if (current.kind !== 'waiting' || current.requestId !== requestId) return current;
          // the server's whole seconds round up: its answer may only bring the end nearer
          if (status.state === 'waiting')
            return { ...current, endsAt: Math.min(current.endsAt, Date.now() + status.secondsLeft * 1000) };
          if (status.state === 'bound')
            return {
              kind: 'bound',
              name: current.name,
              deviceId: status.deviceId,
              message: envelope.message,
            };
          return { kind: status.state, serialNumber: current.serialNumber };
        });
        if (status.state === 'bound') {
          message.success(envelope.message);
          void client.invalidateQueries({ queryKey: deviceKeys.all });
          bound.current(status.deviceId);
        }
      } catch {
        // the http client showed why; the next tick asks again
      } finally {
        checking.current = false;
        if (askAgain.current) {
          askAgain.current = false;
          void recheck.current(requestId);
        }
      }
    },
    [client, message],
  );

  recheck.current = check;

  const waitingId = phase.kind === 'waiting' ? phase.requestId : null;
  const endsAt = phase.kind === 'waiting' ? phase.endsAt : 0;

  // the countdown ticks; polling is the fallback of the live socket
  useEffect(() => {
    if (!waitingId) return;
    const tick = window.setInterval(() => setNow(Date.now()), 500);
    const poll = window.setInterval(() => void check(waitingId), live ? POLL_MS.live : POLL_MS.away);
    return () => {
      window.clearInterval(tick);
      window.clearInterval(poll);
    };
  }, [waitingId, check, live]);

  // at zero the server has expired it (or is about to): ask at once rather than at the next poll
  const secondsLeft = Math.max(0, Math.ceil((endsAt - now) / 1000));
  useEffect(() => {
    if (waitingId && secondsLeft === 0) void check(waitingId);
  }, [waitingId, secondsLeft, check]);

  useEffect(() => {
    if (waitingId && bindEvent?.requestId === waitingId) void check(waitingId);
  }, [bindEvent, waitingId, check]);

  const submit = async () => {
    const values = await validated(form);
    if (!values) return;
    const serialNumber = normalizeSerialNumber(values.serialNumber) ?? values.serialNumber;
    const name = values.name.trim();
    setSending(true);
    try {
      const envelope = await deviceApi.bind({ serialNumber, name, parentId: values.parentId ?? null });
      message.info(envelope.message);
      const answer = envelope.data;
      waitingFor.current = answer.requestId;
      // one instant for both, or the first second shown could read one more than the answer
      const base = Date.now();
      setNow(base);
      setPhase({
        kind: 'waiting',
        requestId: answer.requestId,
        serialNumber,
        name,
        endsAt: base + answer.secondsLeft * 1000,
        total: Math.max(1, answer.secondsLeft),
      });
    } catch (error) {
      const field = bindFieldOf(error);
      if (field && error instanceof ApiError) form.setFields([{ name: field, errors: [error.message] }]);
      else if (error instanceof ApiError)
        reportFailure({ code: error.code, message: error.message, data: null });
    } finally {
      setSending(false);
    }
  };

  const cancelRequest = async () => {
    if (phase.kind !== 'waiting') return;
    try {
      await deviceApi.bindCancel(phase.requestId);
      waitingFor.current = null;
      setPhase({ kind: 'cancelled', serialNumber: phase.serialNumber });
    } catch {
      // bound or expired meanwhile: bindStatus says which
      void check(phase.requestId);
    }
  };

  const close = () => {
    // leaving the dialog gives the request up: the gateway stops blinking
    if (phase.kind === 'waiting') void deviceApi.bindCancel(phase.requestId).catch(() => undefined);
    waitingFor.current = null;
    onClose();
  };

  const again = () => setPhase({ kind: 'form' });

  const footer =
    phase.kind === 'form'
      ? [
          <Button key="cancel" onClick={close}>
            {t('common.cancel', '取消')}
          </Button>,
          <Button key="ok" type="primary" loading={sending} onClick={submit} data-testid="bind-submit">
            {t('bind.submit', '绑定')}
          </Button>,
        ]
      : phase.kind === 'waiting'
        ? [
            <Button key="cancel" danger onClick={cancelRequest} data-testid="bind-cancel">
              {t('bind.cancelRequest', '取消绑定请求')}
            </Button>,
          ]
        : phase.kind === 'bound'
          ? [
              <Button key="done" type="primary" onClick={onClose} data-testid="bind-done">
                {t('bind.done', '完成')}
              </Button>,
            ]
          : [
              <Button key="close" onClick={onClose}>
                {t('common.close', '关闭')}
              </Button>,
              <Button key="again" type="primary" onClick={again} data-testid="bind-again">
                {t('bind.again', '重新绑定')}
              </Button>,
            ];

  return (
    <Modal
      open={open}
      title={t('bind.title', '绑定设备')}
      footer={footer}
      onCancel={close}
      maskClosable={false}
      width={560}
    >
      <div data-testid="bind-dialog" data-phase={phase.kind}>
        <Form form={form} layout="vertical" hidden={phase.kind !== 'form'} preserve>
          <Typography.Paragraph type="secondary">
            {t(
              'bind.intro',
              '输入网关铭牌上的序列号。提交后，请在倒计时结束前到网关处按下绑定按钮确认，网关才会加入本公司。',
            )}
          </Typography.Paragraph>
          <Form.Item
            name="parentId"
            label={t('bind.parent', '所在目录')}
            rules={[{ required: true, message: errorText('parentRequired') }]}
          >
            <TreeSelect
              treeData={directories as never}
              placeholder={t('bind.parentPlaceholder', '选择数据舱中的目录')}
              treeDefaultExpandAll
              treeIcon
              showSearch
              treeNodeFilterProp="title"
              loading={tree.isLoading}
              notFoundContent={t('bind.noDirectories', '没有可写入的目录，请先在数据舱中新建目录')}
              data-testid="bind-parent"
            />
          </Form.Item>
          <Form.Item
            name="serialNumber"
            label={t('fields.serialNumber', '序列号 (SN)')}
            rules={[serialRule(t('bind.snRequired', '请输入序列号'))]}
            normalize={(value: string) => value.toUpperCase()}
          >
            <Input
              placeholder={t('bind.snPlaceholder', '6 至 32 位字母或数字')}
              maxLength={40}
              autoComplete="off"
              data-testid="bind-sn"
            />
          </Form.Item>
          <Form.Item name="name" label={t('fields.name', '设备名称')} rules={[cabinNameRule('device')]}>
            <Input placeholder={t('bind.namePlaceholder', '例如：一号锅炉房网关')} data-testid="bind-name" />
          </Form.Item>
        </Form>
        {phase.kind === 'waiting' ? (
          <Flex vertical align="center" gap={12} data-testid="bind-waiting">
            <Progress
              type="circle"
              percent={Math.round((secondsLeft / phase.total) * 100)}
              format={() => (
                <span className="dv-countdown" data-testid="bind-countdown" data-seconds={secondsLeft}>
                  {secondsLeft}
                  <small>{t('bind.seconds', '秒')}</small>
                </span>
              )}
              status={secondsLeft <= 10 ? 'exception' : 'active'}
            />
            <Typography.Text strong>
              {t('bind.pressButton', '请到网关 {{sn}} 处按下绑定按钮', { sn: phase.serialNumber })}
            </Typography.Text>
            <Steps
              size="small"
              orientation="vertical"
              current={1}
              items={[
                { title: t('bind.step1', '绑定请求已发送到网关，网关的绑定指示灯开始闪烁') },
                { title: t('bind.step2', '在倒计时结束前按下网关上的绑定按钮') },
                { title: t('bind.step3', '网关确认后，设备出现在设备列表中') },
              ]}
            />
          </Flex>
        ) : null}
        {phase.kind === 'bound' ? (
          <Result
            status="success"
            title={<span data-testid="bind-result-bound">{phase.message}</span>}
            subTitle={t('bind.boundText', '“{{name}}”已加入设备列表。', { name: phase.name })}
          />
        ) : null}
        {phase.kind === 'expired' ? (
          <Result
            status="warning"
            title={<span data-testid="bind-result-expired">{errorText('bindRequestExpired')}</span>}
            subTitle={t('bind.expiredText', '网关 {{sn}} 上的绑定按钮没有在时限内按下。', {
              sn: phase.serialNumber,
            })}
          />
        ) : null}
        {phase.kind === 'cancelled' ? (
          <Result
            status="info"
            title={<span data-testid="bind-result-cancelled">{t('bind.cancelled', '绑定请求已取消')}</span>}
            subTitle={t('bind.cancelledText', '网关 {{sn}} 不再等待确认。', { sn: phase.serialNumber })}
          />
        ) : null}
      </div>
    </Modal>
  );
}
