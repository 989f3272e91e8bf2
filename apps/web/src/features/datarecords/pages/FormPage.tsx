import { type FieldDef, type FormElement, isBlankValue, type RecordValues } from '@platform/domain';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  DatePicker,
  Empty,
  Form,
  Input,
  InputNumber,
  Radio,
  Skeleton,
  Space,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { fromPickerValue } from '../../../shared/time';
import { drApi, useDataItem } from '../api';
import { FilesInput } from '../components/FilesInput';
import { dayjsFormat, pickerOf } from '../format';
import '../datarecords.css';
import { validated } from '../../../shared/validated';

type FormState = Record<string, unknown>;

function control(itemId: number, element: FormElement, field: FieldDef | undefined) {
  const testId = `form-el-${element.field}`;
  switch (element.type) {
    case 'textarea':
      return (
        <Input.TextArea
          placeholder={element.placeholder}
          autoSize={{ minRows: 3, maxRows: 10 }}
          data-testid={testId}
        />
      );
    case 'number':
      return (
        <InputNumber
          min={element.min}
          max={element.max}
          precision={element.decimals ?? (field?.type === 10 ? 0 : field?.type === 2 ? 2 : undefined)}
          placeholder={element.placeholder}
          suffix={field?.unit || undefined}
          style={{ width: '100%' }}
          data-testid={testId}
        />
      );
    case 'datetime': {
      const { picker, showTime } = pickerOf(field?.dateFormat);
      return (
        <DatePicker
          picker={picker}
          showTime={showTime}
          format={dayjsFormat(field?.dateFormat)}
          placeholder={element.placeholder}
          style={{ width: '100%' }}
          data-testid={testId}
        />
      );
    }
    case 'radio':
      return <Radio.Group options={element.options ?? []} data-testid={testId} />;
    case 'checkbox':
      return <Checkbox.Group options={element.options ?? []} data-testid={testId} />;
    case 'upload':
      return (
        <FilesInput
          itemId={itemId}
          field={element.field}
          picture={field?.type !== 9}
          maxCount={element.maxCount}
          shape={{ crop: element.crop, maxWidth: element.maxWidth, maxHeight: element.maxHeight }}
          testId={testId}
        />
      );
    default:
      return <Input placeholder={element.placeholder} data-testid={testId} />;
  }
}

/** Form values → record values: dates as ISO text, checkbox choices joined, blanks as null. */
function toValues(elements: FormElement[], fields: FieldDef[], state: FormState): RecordValues {
  const values: RecordValues = {};
  for (const element of elements) {
    const raw = state[element.field];
    const field = fields.find((f) => f.key === element.field);
    if (raw === undefined || raw === null || raw === '') values[element.field] = null;
    else if (dayjs.isDayjs(raw)) values[element.field] = fromPickerValue(raw);
    else if (Array.isArray(raw) && element.type === 'checkbox')
      values[element.field] = raw.length ? raw.join(',') : null;
    else if (Array.isArray(raw)) values[element.field] = raw.length ? raw : null;
    else if (typeof raw === 'string' && field && [10, 1, 2].includes(field.type))
      values[element.field] = Number(raw);
    else values[element.field] = raw as RecordValues[string];
  }
  return values;
}

/** /smartdata/formpage/:itemId/:itemName/:objId: fill in a form item's (kind 11) form. */
export default function FormPage() {
  const { t } = useTranslation('datarecords');
  const { message } = App.useApp();
  const params = useParams();
  const itemId = Number(params.itemId);
  const item = useDataItem(itemId);
  const [form] = Form.useForm<FormState>();
  const [saving, setSaving] = useState(false);

  if (item.isError) {
    return (
      <Card variant="borderless" data-testid="form-page">
        <Alert type="error" showIcon title={t('item.loadFailed', '无法加载数据项')} />
      </Card>
    );
  }
  if (!item.data) {
    return (
      <Card variant="borderless" data-testid="form-page">
        <Skeleton active />
      </Card>
    );
  }
  const data = item.data;
  const elements = data.form ?? [];

  const submit = async () => {
    const state = await validated(form);
    if (!state) return;
    const values = toValues(elements, data.fields, state);
    // nothing entered: no empty record, and say why nothing was saved
    if (Object.values(values).every(isBlankValue)) {
      message.warning(t('form.nothing', '没有填写任何内容，请至少填写一项后再提交'));
      return;
    }
    setSaving(true);
    try {
      const envelope = await drApi.add({ itemId, values });
      message.success(envelope.message);
      form.resetFields();
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card variant="borderless" data-testid="form-page" className="dr-page">
      <div className="dr-form-wrap">
        <Typography.Title level={4} data-testid="form-title">
          {data.name}
        </Typography.Title>
        {data.description ? (
          <Typography.Paragraph type="secondary">{data.description}</Typography.Paragraph>
        ) : null}
        {elements.length === 0 ? (
          <Empty description={t('form.empty', '该表单还没有配置表单元素')} />
        ) : (
          <Form form={form} layout="vertical" data-testid="entry-form" requiredMark>
            {elements.map((element) => {
              const field = data.fields.find((f) => f.key === element.field);
              return (
                <Form.Item
                  key={element.id}
                  name={element.field}
                  label={element.label || field?.name}
                  rules={
                    element.required
                      ? [
                          {
                            required: true,
                            message: t('form.required', '请填写{{name}}', {
                              name: element.label || field?.name,
                            }),
                          },
                        ]
                      : []
                  }
                >
                  {control(itemId, element, field)}
                </Form.Item>
              );
            })}
            <Space>
              <Button type="primary" loading={saving} onClick={submit} data-testid="form-submit">
                {t('form.submit', '提交')}
              </Button>
              <Button onClick={() => form.resetFields()}>{t('form.reset', '重置')}</Button>
            </Space>
          </Form>
        )}
      </div>
    </Card>
  );
}
