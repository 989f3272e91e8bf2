import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from '@ant-design/icons';
import {
  checkForm,
  elementFits,
  FORM_ELEMENT_TYPES,
  type FormElement,
  type FormElementType,
  messageFor,
} from '@platform/domain';
import {
  App,
  Button,
  Checkbox,
  Col,
  Dropdown,
  Empty,
  Input,
  InputNumber,
  Row,
  Select,
  Space,
  Tag,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLang } from '../../../app/i18n';
import { cabinApi, type DataItem } from '../api';

const newId = () => `e${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The elements of a form item (kind 11), each bound to a field of a fitting type. */
export function FormTab({ item, editable }: { item: DataItem; editable: boolean }) {
  const { t } = useTranslation('datacabin');
  const { message } = App.useApp();
  const [elements, setElements] = useState<FormElement[]>([]);
  const [bad, setBad] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => setElements(item.form ?? []), [item]);

  const patch = (index: number, change: Partial<FormElement>) => {
    setElements((list) => list.map((e, i) => (i === index ? { ...e, ...change } : e)));
    setBad(null);
  };
  const move = (index: number, delta: number) =>
    setElements((list) => {
      const next = [...list];
      const [moved] = next.splice(index, 1);
      if (moved) next.splice(index + delta, 0, moved);
      return next;
    });

  const add = (type: FormElementType) => {
    const field = item.fields.find((f) => elementFits(type, f.type));
    setElements((list) => [
      ...list,
      {
        id: newId(),
        type,
        label: field?.name ?? t(`element.${type}`, type),
        field: field?.key ?? '',
        required: Boolean(field?.required),
        ...(type === 'radio' || type === 'checkbox' ? { options: [] } : {}),
        ...(type === 'upload' ? { maxCount: 1 } : {}),
      },
    ]);
  };

  const save = async () => {
    const trimmed = elements.map((e) => ({ ...e, label: e.label.trim() }));
    // the same check the server runs: the first broken rule names its element
    const checked = checkForm(item.fields, trimmed);
    if (!checked.ok) {
      setBad(trimmed[checked.index]?.id ?? null);
      const label = trimmed[checked.index]?.label || t(`element.${trimmed[checked.index]?.type}`, '');
      message.error(
        checked.key === 'validation' && checked.field === 'options'
          ? t('form.optionsRequired', '单选和多选需要至少一个选项')
          : messageFor(checked.key, currentLang(), checked.params ?? { field: label, element: label }),
      );
      return;
    }
    setSaving(true);
    try {
      const envelope = await cabinApi.updateForm(item.id, trimmed);
      message.success(envelope.message);
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  return (
    <div data-testid="form-tab">
      <div className="dc-tab-actions">
        <Dropdown
          disabled={!editable}
          menu={{
            items: FORM_ELEMENT_TYPES.map((type) => ({ key: type, label: t(`element.${type}`, type) })),
            onClick: ({ key }) => add(key as FormElementType),
          }}
        >
          <Button data-testid="form-add">{t('form.add', '添加表单元素')}</Button>
        </Dropdown>
        <Button type="primary" loading={saving} disabled={!editable} onClick={save} data-testid="form-save">
          {t('common.save', '保存')}
        </Button>
      </div>
      {elements.length === 0 && (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('form.empty', '表单还没有元素')} />
      )}
      {elements.map((element, index) => {
        const fields = item.fields.filter((f) => elementFits(element.type, f.type));
        return (
          <div
            key={element.id}
            className="dc-form-element"
            style={bad === element.id ? { borderColor: '#ff4d4f' } : undefined}
            data-testid={`form-element-${index}`}
          >
            <Space className="dc-gap" wrap>
              <Tag color="blue">{t(`element.${element.type}`, element.type)}</Tag>
              <Button
                size="small"
                type="text"
                icon={<ArrowUpOutlined />}
                disabled={!editable || index === 0}
                onClick={() => move(index, -1)}
                aria-label={t('fields.up', '上移')}
              />
              <Button
                size="small"
                type="text"
                icon={<ArrowDownOutlined />}
                disabled={!editable || index === elements.length - 1}
                onClick={() => move(index, 1)}
                aria-label={t('fields.down', '下移')}
              />
              <Button
                size="small"
                type="text"
                danger
                icon={<DeleteOutlined />}
                disabled={!editable}
                onClick={() => setElements((list) => list.filter((e) => e.id !== element.id))}
                aria-label={t('common.delete', '删除')}
              />
            </Space>
            <Row gutter={[12, 12]}>
              <Col xs={24} md={8}>
                <div className="dc-muted">{t('form.label', '标题')}</div>
                <Input
                  value={element.label}
                  maxLength={25}
                  disabled={!editable}
                  onChange={(e) => patch(index, { label: e.target.value })}
                />
              </Col>
              <Col xs={24} md={8}>
                <div className="dc-muted">{t('form.field', '绑定字段')}</div>
                <Select<string>
                  style={{ width: '100%' }}
                  value={element.field || undefined}
                  disabled={!editable}
                  onChange={(field) => patch(index, { field })}
                  options={fields.map((f) => ({ value: f.key, label: f.name }))}
                  notFoundContent={t('form.noFitting', '没有类型匹配的字段')}
                />
              </Col>
              <Col xs={24} md={8}>
                <div className="dc-muted">{t('form.placeholder', '提示文字')}</div>
                <Input
                  value={element.placeholder ?? ''}
                  maxLength={50}
                  disabled={!editable}
                  onChange={(e) => patch(index, { placeholder: e.target.value || undefined })}
                />
              </Col>
              <Col xs={24}>
                <Checkbox
                  checked={element.required}
                  disabled={!editable}
                  onChange={(e) => patch(index, { required: e.target.checked })}
                >
                  {t('fields.required', '必填')}
                </Checkbox>
              </Col>
              {element.type === 'number' && (
                <Col xs={24}>
                  <Space wrap>
                    <InputNumber
                      addonBefore={t('form.min', '最小值')}
                      value={element.min}
                      disabled={!editable}
                      onChange={(v) => patch(index, { min: v ?? undefined })}
                    />
                    <InputNumber
                      addonBefore={t('form.max', '最大值')}
                      value={element.max}
                      disabled={!editable}
                      onChange={(v) => patch(index, { max: v ?? undefined })}
                    />
                    <InputNumber
                      addonBefore={t('form.decimals', '小数位')}
                      min={0}
                      max={10}
                      precision={0}
                      value={element.decimals}
                      disabled={!editable}
                      onChange={(v) => patch(index, { decimals: v ?? undefined })}
                    />
                  </Space>
                </Col>
              )}
              {(element.type === 'radio' || element.type === 'checkbox') && (
                <Col xs={24}>
                  <div className="dc-muted">{t('form.options', '选项（回车添加）')}</div>
                  <Select
                    mode="tags"
                    style={{ width: '100%' }}
                    value={element.options ?? []}
                    disabled={!editable}
                    open={false}
                    onChange={(options: string[]) => patch(index, { options })}
                  />
                </Col>
              )}
              {element.type === 'upload' && (
                <Col xs={24}>
                  <Space wrap>
                    <InputNumber
                      addonBefore={t('form.maxCount', '最多文件数')}
                      min={1}
                      max={20}
                      precision={0}
                      value={element.maxCount}
                      disabled={!editable}
                      onChange={(v) => patch(index, { maxCount: v ?? undefined })}
                    />
                    <Checkbox
                      checked={Boolean(element.crop)}
                      disabled={!editable}
                      onChange={(e) => patch(index, { crop: e.target.checked })}
                    >
                      {t('form.crop', '裁剪')}
                    </Checkbox>
                    <InputNumber
                      addonBefore={t('form.maxWidth', '最大宽度')}
                      addonAfter="px"
                      min={1}
                      precision={0}
                      value={element.maxWidth}
                      disabled={!editable}
                      onChange={(v) => patch(index, { maxWidth: v ?? undefined })}
                    />
                    <InputNumber
                      addonBefore={t('form.maxHeight', '最大高度')}
                      addonAfter="px"
                      min={1}
                      precision={0}
                      value={element.maxHeight}
                      disabled={!editable}
                      onChange={(v) => patch(index, { maxHeight: v ?? undefined })}
                    />
                  </Space>
                </Col>
              )}
            </Row>
          </div>
        );
      })}
    </div>
  );
}
