import { PlusOutlined } from '@ant-design/icons';
import {
  type AnswerLayout,
  answerLayout,
  crossValueProblems,
  decodeFrame,
  MAX_ANSWER_BYTES,
  MAX_PARSER_VALUES,
  parseHex,
  sampleModbusAnswer,
  toHex,
  valueProblems,
  appendCrc as withCrc,
} from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, InputNumber, Result, Skeleton, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { dcApi, dcKeys, type ItemOption, type ParserDetail, useParser, useWritableItems } from '../api';
import { type Draft, draftOf, draftValue, nextDraft, patchDraft } from '../components/draft';
import { FramePreview } from '../components/FramePreview';
import { FrameText } from '../components/FrameText';
import { useLabels } from '../components/labels';
import { ValueCard } from '../components/ValueCard';
import { dcPaths } from '../paths';
import '../devicecommunication.css';

/**
 * A pasted frame as hex pairs: tools print frames with other spacing, line breaks or none
 * ("0103044120"), so the preview reads any of those. (A packet's own frame keeps the seed's
 * strict rule.) Anything else is left as it is, for the preview to say what is wrong.
 */
function pastedHex(text: string): string {
  const digits = text.replace(/\s+/g, '');
  if (digits === '' || digits.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(digits)) return text.trim();
  return digits.toUpperCase().replace(/(..)(?!$)/g, '$1 ');
}

/** A well-formed answer to the packet for the preview, keeping the data bytes already pasted. */
function sampleAnswer(layout: AnswerLayout, pasted: string): string | null {
  const current = parseHex(pastedHex(pasted));
  if (layout.kind === 'modbus') {
    const data = current && current.length >= 3 ? current.slice(3, 3 + layout.dataLength) : [];
    return sampleModbusAnswer(layout.read, data);
  }
  if (layout.answerLength == null) return null;
  const body = new Uint8Array(layout.dataLength ?? 0);
  if (current) body.set(current.slice(0, body.length));
  return toHex(layout.crc ? withCrc(body) : body);
}

/** The items a value may be bound to: the writable ones, and those already bound that the person may only read. */
function itemChoices(writable: ItemOption[], detail: ParserDetail): ItemOption[] {
  const out = [...writable];
  for (const item of detail.items) if (!out.some((i) => i.id === item.id)) out.push(item);
  return out;
}

function ParserEditor({ detail, id }: { detail: ParserDetail; id: number }) {
  const { t, message: catalogue } = useLabels();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const writable = useWritableItems();
  const packet = detail.package;
  const [drafts, setDrafts] = useState<Draft[]>(() => detail.values.map(draftOf));
  const [answerLength, setAnswerLength] = useState<number | null>(detail.answerLength);
  const layout = useMemo(() => answerLayout(packet, answerLength), [packet, answerLength]);
  const [frame, setFrame] = useState<string>(() =>
    layout.kind === 'modbus' ? (sampleAnswer(layout, '') ?? '') : '',
  );
  const [active, setActive] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [showProblems, setShowProblems] = useState(false);

  const items = itemChoices(writable.data ?? [], detail);
  const values = useMemo(() => drafts.map(draftValue), [drafts]);
  // decoded again at every change of the frame or of any value: the preview is never stale
  const decoded = useMemo(() => {
    const text = pastedHex(frame);
    return text === '' ? null : decodeFrame(text, packet, { answerLength, values });
  }, [frame, packet, answerLength, values]);

  const problems = useMemo(() => {
    const cross = crossValueProblems(values);
    return values.map((value, index) =>
      [
        ...valueProblems(value, layout, { requireBinding: showProblems }),
        ...cross.filter((p) => p.index === index),
        ...(showProblems && value.itemId != null && (items.find((i) => i.id === value.itemId)?.level ?? 0) < 2
          ? [{ field: 'itemId', key: 'parserItemNotWritable' as const, params: { value: value.name } }]
          : []),
      ].map((p) => ({ ...p, message: catalogue(p.key, p.params) })),
    );
  }, [values, layout, showProblems, items, catalogue]);

  const targets = values.map((v) => {
    const item = items.find((i) => i.id === v.itemId);
    const field = item?.fields.find((f) => f.key === v.fieldKey);
    return item ? `${item.name} · ${field?.name ?? '?'}` : '';
  });

  const update = (index: number, patch: Partial<Draft>) =>
    setDrafts((list) => list.map((d, i) => (i === index ? patchDraft(d, patch) : d)));
  const move = (index: number, by: -1 | 1) =>
    setDrafts((list) => {
      const next = [...list];
      const [moved] = next.splice(index, 1);
      next.splice(index + by, 0, moved!);
      return next;
    });
  const add = () =>
    setDrafts((list) => [
      ...list,
      nextDraft(list, t('parser.defaultName', '值{{n}}', { n: list.length + 1 })),
    ]);

  const save = async () => {
    setShowProblems(true);
    const cross = crossValueProblems(values);
    const broken =
      values.some((v) => valueProblems(v, layout, { requireBinding: true }).length > 0) || cross.length > 0;
    if (broken) {
      message.error(t('parser.fixFirst', '请先改正标红的值'));
      return;
    }
    setSaving(true);
    try {
      const envelope = await dcApi.saveParser(id, layout.kind === 'modbus' ? null : answerLength, values);
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: dcKeys.all });
    } catch {
      // the http client showed the error, naming the value
    } finally {
      setSaving(false);
    }
  };

  const layoutText =
    layout.kind === 'modbus'
      ? t(
          'parser.layoutModbus',
          'Modbus 读 {{quantity}} 个{{unit}}：应答 {{answer}} 字节，数据从第 3 字节开始，共 {{data}} 字节；偏移从第一个数据字节算起。',
          {
            quantity: layout.read.quantity,
            unit: layout.read.fn <= 2 ? t('parser.unitBits', '位') : t('parser.unitRegisters', '寄存器'),
            answer: layout.answerLength,
            data: layout.dataLength,
          },
        )
      : t('parser.layoutRaw', '应答按原样解析，偏移从应答的第一个字节算起{{crc}}。', {
          crc: layout.crc ? t('parser.layoutRawCrc', '，末尾 2 字节为 CRC') : '',
        });

  return (
    <Card
      variant="borderless"
      title={t('parser.title', '解析配置：{{name}}', { name: packet.name })}
      data-testid="parser-page"
      extra={
        <Space wrap>
          <Button onClick={() => navigate(dcPaths.parsing)}>{t('common.back', '返回')}</Button>
          <Button type="primary" loading={saving} onClick={save} data-testid="parser-save">
            {t('common.save', '保存')}
          </Button>
        </Space>
      }
    >
      <div className="dc-parser-summary">
        <div>
          {t('parser.packet', '数据包：')}
          <FrameText frame={packet.frame} crc={packet.crc} testId="parser-packet-frame" />
        </div>
        <div className="dc-muted" data-testid="parser-layout">
          {layoutText}
        </div>
        {layout.kind === 'raw' ? (
          <div className="dc-answer-length">
            {t('parser.answerLength', '应答长度（字节，含 CRC；留空则不限）')}
            <InputNumber
              min={1}
              max={MAX_ANSWER_BYTES}
              precision={0}
              value={answerLength}
              onChange={(v) => setAnswerLength(v)}
              data-testid="parser-answer-length"
            />
          </div>
        ) : null}
        {detail.updatedBy ? (
          <div className="dc-muted">
            {t('parser.savedBy', '数值以最后保存者“{{name}}”的数据权限写入数据项。', {
              name: detail.updatedBy,
            })}
          </div>
        ) : null}
      </div>
      <div className="dc-parser-grid">
        <div className="dc-parser-preview">
          <FramePreview
            text={frame}
            onText={setFrame}
            decoded={decoded}
            names={values.map((v) => v.name)}
            targets={targets}
            active={active}
            onActive={setActive}
            onFill={
              layout.kind === 'modbus' || layout.answerLength != null
                ? () => setFrame(sampleAnswer(layout, frame) ?? frame)
                : null
            }
          />
        </div>
        <div className="dc-parser-values" data-testid="parser-values">
          {drafts.length === 0 ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t(
                'parser.empty',
                '还没有值。每个值从应答中读取若干字节，换算后存入物联网数据列表的一个字段。',
              )}
            />
          ) : null}
          {drafts.map((draft, index) => (
            <ValueCard
              key={draft.key}
              draft={draft}
              index={index}
              count={drafts.length}
              result={decoded?.values[index]}
              problems={problems[index] ?? []}
              items={items}
              active={active === index}
              onChange={(patch) => update(index, patch)}
              onMove={(by) => move(index, by)}
              onRemove={() => setDrafts((list) => list.filter((_, i) => i !== index))}
              onFocus={() => setActive(index)}
            />
          ))}
          <Button
            block
            type="dashed"
            icon={<PlusOutlined />}
            onClick={add}
            disabled={drafts.length >= MAX_PARSER_VALUES}
            data-testid="parser-add"
          >
            {t('parser.add', '添加值')}
          </Button>
          <Typography.Paragraph className="dc-muted" style={{ marginTop: 12 }}>
            {t(
              'parser.orderHelp',
              '字节序：ABCD 为大端；CDAB 交换寄存器（字）的顺序；BADC 交换每个寄存器内的两个字节；DCBA 为小端。2 字节的值只有 AB 与 BA 两种，8 字节的值按 4 个寄存器同样处理。',
            )}
          </Typography.Paragraph>
        </div>
      </div>
    </Card>
  );
}

/** /devicecommunication/parsingconfig/:dataPkgId: the values read from a packet's answers, with a live preview. */
export default function ParsingConfigPage() {
  const { t } = useLabels();
  const params = useParams();
  const id = Number(params.dataPkgId);
  const parser = useParser(id);

  if (!Number.isInteger(id) || id <= 0)
    return <Result status="404" title={t('common.badLink', '链接无效')} />;
  if (parser.isLoading) {
    return (
      <Card variant="borderless">
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }
  if (!parser.data) return <Result status="404" title={t('packet.notFound', '数据包不存在')} />;
  // the draft starts from what is stored; a refetch after saving leaves what is being edited alone
  return <ParserEditor key={id} detail={parser.data} id={id} />;
}
