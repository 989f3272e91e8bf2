import { DeleteOutlined } from '@ant-design/icons';
import { NUMERIC_FIELD_TYPES, transformerRatio } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Skeleton,
  Space,
  Typography,
} from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../../app/http/client';
import { notifier } from '../../../app/http/notifier';
import { LoadFailed } from '../../../shared/LoadFailed';
import { PageHeader } from '../../../shared/PageHeader';
import { cabinKeys, useDataItem } from '../../datacabin/api';
import { ItemPicker } from '../../datacabin/components/ItemPicker';
import {
  METER_POINTS,
  type Meter,
  type MeterInput,
  type MeterPoint,
  meterApi,
  meterKeys,
  STANDARD,
  useMeter,
  useMeters,
  VIRTUAL,
} from '../api';
import { FormulaField } from '../components/FormulaField';
import { underField } from '../format';
import { meterPaths, NEW_METER_ID } from '../paths';
import '../meters.css';

interface Values {
  name: string;
  code?: string;
  itemId?: number | null;
  points?: Partial<Record<MeterPoint, string | undefined>>;
  ctPrimary: number;
  ctSecondary: number;
  ptPrimary: number;
  ptSecondary: number;
  registerDigits?: number | null;
  samplingId?: number;
  formula?: string;
  parentMeterId?: number | null;
}

const SAMPLING = [
  { id: 1, minutes: 1 },
  { id: 2, minutes: 5 },
  { id: 3, minutes: 10 },
  { id: 4, minutes: 15 },
];

/**
 * /smartdata/electricMeterConfig/:electricMeterId/:electricMeterName: a meter's form. Id 0 makes a
 * new one (paths.ts: `?type=101|100&dir=<directory node id>`); otherwise the meter is edited and
 * keeps its type. A refusal of the server is shown under the field it names (`data.field`).
 */
export default function MeterConfigPage() {
  const { t } = useTranslation('meters');
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const params = useParams();
  const [search] = useSearchParams();
  const id = Number(params.electricMeterId) || NEW_METER_ID;
  const isNew = id === NEW_METER_ID;
  const dirId = Number(search.get('dir')) || null;
  const meter = useMeter(id);
  const meters = useMeters();
  const type = isNew ? (search.get('type') === String(VIRTUAL) ? VIRTUAL : STANDARD) : meter.data?.type;
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [formulaError, setFormulaError] = useState<string | null>(null);
  const itemId = Form.useWatch('itemId', form);
  const code = Form.useWatch('code', form);
  const name = Form.useWatch('name', form);
  const formula = Form.useWatch('formula', form);
  const item = useDataItem(typeof itemId === 'number' ? itemId : 0);

  // a refusal of the save stands until the formula is changed
  const [refusedFormula, setRefusedFormula] = useState<string | null>(null);
  const shownFormulaError = formulaError != null && refusedFormula === formula ? formulaError : null;

  useEffect(() => {
    const m = meter.data;
    if (!m) return;
    form.setFieldsValue({
      name: m.name,
      code: m.code,
      itemId: m.itemId,
      points: m.points,
      ctPrimary: m.ct.primary,
      ctSecondary: m.ct.secondary,
      ptPrimary: m.pt.primary,
      ptSecondary: m.pt.secondary,
      registerDigits: m.registerDigits,
      samplingId: m.samplingId ?? 4,
      formula: m.formula ?? '',
      parentMeterId: m.parentMeterId,
    });
  }, [meter.data, form]);

  const fieldOptions = useMemo(
    () =>
      (item.data?.fields ?? [])
        .filter((f) => NUMERIC_FIELD_TYPES.includes(f.type))
        .map((f) => ({ value: f.key, label: f.unit ? `${f.name} (${f.unit})` : f.name })),
    [item.data],
  );
  const otherMeters: Meter[] = (meters.data ?? []).filter((m) => m.id !== id);

  const ratioRule = (kind: 'ct' | 'pt', side: 'primary' | 'secondary'): Rule => ({
    validator: (_, value: number | null) => {
      const other = form.getFieldValue(`${kind}${side === 'primary' ? 'Secondary' : 'Primary'}`) ?? 1;
      const r =
        side === 'primary'
          ? transformerRatio(value ?? Number.NaN, other)
          : transformerRatio(other, value ?? Number.NaN);
      return r.ok || r.field !== side
        ? Promise.resolve()
        : Promise.reject(new Error(t('config.ratioInvalid', '请输入大于 0 的数')));
    },
  });

  const showRefusal = (error: unknown) => {
    if (!(error instanceof ApiError)) return;
    const field = (error.data as { field?: string } | null)?.field;
    if (field === 'formula' || field === 'preset.meterId') {
      setFormulaError(underField(error.message, field));
      setRefusedFormula(form.getFieldValue('formula') ?? '');
      return;
    }
    const path = field?.split('.');
    const known = path && form.getFieldInstance(path as never) !== undefined;
    if (path && (known || field?.startsWith('points.') || field === 'itemId')) {
      form.setFields([{ name: path as never, errors: [underField(error.message, field)] }]);
      form.scrollToField(path as never);
      return;
    }
    notifier().error({ message: t('config.refused', '未保存'), description: error.message });
  };

  const save = async (values: Values) => {
    if (!type) return;
    const input: MeterInput = {
      name: values.name.trim(),
      type,
      code: values.code?.trim() || null,
      parentMeterId: values.parentMeterId ?? null,
    };
    if (type === STANDARD) {
      input.itemId = values.itemId ?? null;
      input.points = Object.fromEntries(
        Object.entries(values.points ?? {}).filter(
          (e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '',
        ),
      );
      input.ctPrimary = values.ctPrimary;
      input.ctSecondary = values.ctSecondary;
      input.ptPrimary = values.ptPrimary;
      input.ptSecondary = values.ptSecondary;
      input.registerDigits = values.registerDigits ?? null;
      input.samplingId = values.samplingId ?? 4;
    } else {
      input.formula = values.formula ?? '';
    }
    setSaving(true);
    try {
      const envelope = isNew
        ? await meterApi.create({ ...input, parentId: dirId })
        : await meterApi.update(id, input);
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: meterKeys.all });
      await queryClient.invalidateQueries({ queryKey: cabinKeys.all });
      navigate(meterPaths.view(envelope.data), { replace: isNew });
    } catch (error) {
      showRefusal(error);
    } finally {
      setSaving(false);
    }
  };

  const remove = () =>
    modal.confirm({
      title: t('config.deleteTitle', '删除电表“{{name}}”？', { name: meter.data?.name }),
      content: t('config.deleteText', '电表的日志一并删除；被虚拟电表公式引用的电表不能删除。'),
      okText: t('common.delete', '删除'),
      okButtonProps: { danger: true, 'data-testid': 'meter-delete-ok' } as never,
      cancelText: t('common.cancel', '取消'),
      onOk: async () => {
        try {
          message.success((await meterApi.remove(id)).message);
          await queryClient.invalidateQueries({ queryKey: meterKeys.all });
          await queryClient.invalidateQueries({ queryKey: cabinKeys.all });
          navigate('/smartdata/datacapsule');
        } catch {
          // the http client showed the error
        }
      },
    });

  if (!isNew && meter.isError) return <LoadFailed onRetry={() => meter.refetch()} />;
  if (!isNew && !meter.data) return <Skeleton active />;

  const title = isNew
    ? type === VIRTUAL
      ? t('config.newVirtual', '新建虚拟电表')
      : t('config.newStandard', '新建标准电表')
    : t('config.editTitle', '编辑电表：{{name}}', { name: meter.data?.name });

  const point = (p: MeterPoint) => (
    <Col xs={24} sm={12} lg={8} key={p}>
      <Form.Item
        name={['points', p]}
        label={t(`points.${p}`)}
        rules={
          p === 'energy'
            ? [{ required: true, message: t('config.energyRequired', '请选择累计有功电能字段') }]
            : []
        }
      >
        <Select
          allowClear
          options={fieldOptions}
          placeholder={itemId ? t('config.pickField', '选择字段') : t('config.pickItemFirst', '先选择数据项')}
          disabled={!itemId}
          data-testid={`meter-point-${p}`}
        />
      </Form.Item>
    </Col>
  );

  return (
    <div className="meter-page" data-testid="meter-config-page">
      <PageHeader
        title={title}
        hint={
          type === VIRTUAL
            ? t('config.virtualHint', '虚拟电表的电量由其他电表按公式计算，公式用电表编码书写。')
            : t('config.standardHint', '标准电表读取一个数据项的记录：累计有功电能为必选，其余测点可选。')
        }
        extra={
          !isNew && meter.data && meter.data.level >= 3 ? (
            <Button danger icon={<DeleteOutlined />} onClick={remove} data-testid="meter-delete">
              {t('common.delete', '删除')}
            </Button>
          ) : null
        }
      />
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={save}
        initialValues={{
          ctPrimary: 1,
          ctSecondary: 1,
          ptPrimary: 1,
          ptSecondary: 1,
          samplingId: 4,
          formula: '',
        }}
        scrollToFirstError
        data-testid="meter-form"
      >
        <Card title={t('config.basic', '基本信息')} className="meter-card">
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item
                name="name"
                label={t('fields.name', '名称')}
                rules={[
                  { required: true, whitespace: true, message: t('config.nameRequired', '请输入名称') },
                ]}
              >
                <Input maxLength={60} data-testid="meter-name" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="code"
                label={t('fields.code', '编码')}
                extra={t('config.codeHint', '公式用编码引用电表，公司内唯一；不填则用名称')}
              >
                <Input maxLength={25} placeholder={name?.trim() || undefined} data-testid="meter-code" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="parentMeterId"
                label={t('fields.parentMeter', '上级电表')}
                extra={t('config.parentHint', '总表与子表的平衡在上级电表的月报中核对')}
              >
                <Select
                  allowClear
                  showSearch
                  optionFilterProp="label"
                  loading={meters.isLoading}
                  placeholder={t('config.noParent', '无')}
                  options={otherMeters.map((m) => ({ value: m.id, label: `${m.name} (${m.code})` }))}
                  data-testid="meter-parent"
                />
              </Form.Item>
            </Col>
          </Row>
        </Card>

        {type === STANDARD ? (
          <>
            <Card title={t('config.source', '数据来源')} className="meter-card">
              <Form.Item
                name="itemId"
                label={t('fields.item', '数据项')}
                rules={[{ required: true, message: t('config.itemRequired', '请选择数据项') }]}
                extra={t('config.itemHint', '通常是网关采集电表的物联网数据项')}
              >
                <ItemPicker testId="meter-item" />
              </Form.Item>
              <Row gutter={16}>{METER_POINTS.map(point)}</Row>
            </Card>
            <Card title={t('config.transformers', '互感器与表计')} className="meter-card">
              <Row gutter={16}>
                {(['ct', 'pt'] as const).flatMap((kind) =>
                  (['primary', 'secondary'] as const).map((side) => {
                    const field = `${kind}${side === 'primary' ? 'Primary' : 'Secondary'}` as const;
                    return (
                      <Col xs={12} md={6} key={field}>
                        <Form.Item
                          name={field}
                          label={t(`fields.${field}`)}
                          rules={[
                            { required: true, message: t('config.ratioInvalid', '请输入大于 0 的数') },
                            ratioRule(kind, side),
                          ]}
                        >
                          <InputNumber className="meter-number" data-testid={`meter-${field}`} />
                        </Form.Item>
                      </Col>
                    );
                  }),
                )}
                <Col xs={12} md={6}>
                  <Form.Item
                    name="registerDigits"
                    label={t('fields.registerDigits', '整数位数')}
                    extra={t('config.digitsHint', '用于判断翻转；不填表示不翻转')}
                  >
                    <InputNumber
                      className="meter-number"
                      min={1}
                      max={12}
                      precision={0}
                      data-testid="meter-digits"
                    />
                  </Form.Item>
                </Col>
                <Col xs={12} md={6}>
                  <Form.Item name="samplingId" label={t('fields.sampling', '采样频率')}>
                    <Select
                      options={SAMPLING.map((s) => ({
                        value: s.id,
                        label: t('config.minutes', '{{count}} 分钟', { count: s.minutes }),
                      }))}
                      data-testid="meter-sampling"
                    />
                  </Form.Item>
                </Col>
              </Row>
            </Card>
          </>
        ) : type === VIRTUAL ? (
          <Card title={t('fields.formula', '公式')} className="meter-card">
            <FormulaField
              meters={otherMeters}
              self={isNew ? { code: (code?.trim() || name?.trim()) ?? undefined } : { id }}
              serverError={shownFormulaError}
            />
          </Card>
        ) : null}

        <Space wrap className="meter-form-actions">
          <Button type="primary" htmlType="submit" loading={saving} data-testid="meter-save">
            {t('common.save', '保存')}
          </Button>
          <Button onClick={() => navigate(-1)}>{t('common.back', '返回')}</Button>
          {!isNew && meter.data ? (
            <Typography.Link onClick={() => navigate(meterPaths.view(meter.data!))}>
              {t('config.openMeter', '查看电表')}
            </Typography.Link>
          ) : null}
        </Space>
      </Form>
    </div>
  );
}
