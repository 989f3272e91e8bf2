/**
 * One device-family template being edited: its code, names and roles (a form above) and its
 * drawing in the configuration screen editor, the roles offered as the points to bind. Saving
 * sends the form and the drawing together; a refusal naming a form field (`code`,
 * `roles[1].key`) shows on that field, one naming `body.elements[i]…` selects the element.
 * A role row moved or removed moves the drawing's bindings with it (they name roles by number).
 */
import { ArrowLeftOutlined } from '@ant-design/icons';
import {
  FAMILY_LIMITS,
  type FamilyLang,
  placeTemplate,
  remapRoles,
  roleBinding,
  rolePoints,
  roleUses,
  type ScreenBody,
} from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, type ButtonProps, Collapse, Form, Input, Tag, Typography } from 'antd';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/http/client';
import { ScreenEditor, type ScreenEditorHandle } from '../../screens/components/ScreenEditor';
import {
  checkDraft,
  type DraftProblem,
  draftSignature,
  emptyRole,
  type RoleRow,
  rolesOf,
  type TemplateDraft,
} from '../templateDraft';
import { type TemplateFull, templateKeys, templatesApi } from '../templatesApi';
import { RolesTable } from './RolesTable';

export function TemplateEditor({
  id,
  initialDraft,
  initialBody,
  version: firstVersion,
  builtin: firstBuiltin,
  onCreated,
  onBack,
}: {
  /** null: a new template (created on the first save) */
  id: number | null;
  initialDraft: TemplateDraft;
  initialBody: ScreenBody;
  version: number | null;
  builtin: boolean;
  onCreated: (id: number) => void;
  /** back to the list (asked first when something is unsaved) */
  onBack: () => void;
}) {
  const { t, i18n } = useTranslation('flowcharts');
  const lang: FamilyLang = i18n.language.startsWith('en') ? 'en' : 'zh';
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const editor = useRef<ScreenEditorHandle>(null);
  const [draft, setDraft] = useState(initialDraft);
  const [savedSignature, setSavedSignature] = useState(() =>
    id === null ? null : draftSignature(initialDraft),
  );
  const [version, setVersion] = useState(firstVersion);
  const [builtin, setBuiltin] = useState(firstBuiltin);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [drawingDirty, setDrawingDirty] = useState(id === null);
  // open for a new template (its code and names are to be typed), folded for one being redrawn
  const [formOpen, setFormOpen] = useState(id === null);
  const formDirty = draftSignature(draft) !== savedSignature;

  const problemText = (p: { problem: DraftProblem; max?: number }) =>
    ({
      code: t('templates.problem.code', '以小写字母开头，只含小写字母、数字和 -，2 到 32 个字符'),
      required: t('templates.problem.required', '必填'),
      tooLong: t('templates.problem.tooLong', '最多 {{max}} 个字符', { max: p.max }),
      roleKey: t('templates.problem.roleKey', '以小写字母开头，只含字母和数字（如 acPower）'),
      duplicate: t('templates.problem.duplicate', '与上面的角色键重复'),
      noRoles: t('templates.problem.noRoles', '至少需要一个角色'),
      tooManyRoles: t('templates.problem.tooManyRoles', '最多 {{max}} 个角色', { max: p.max }),
    })[p.problem];

  const change = (next: TemplateDraft, touched: string) => {
    setDraft(next);
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== touched)));
  };

  /** the rows reshaped: `from[j]` the old row now at j (null: new); the drawing follows */
  const reshape = (rows: RoleRow[], from: Array<number | null>) => {
    editor.current?.rewrite((b) => remapRoles(b, from));
    setDraft((d) => ({ ...d, roles: rows }));
    // the messages named rows by number: they no longer fit
    setErrors(
      ({ code, 'name.zh': zh, 'name.en': en }) =>
        Object.fromEntries(
          Object.entries({ code, 'name.zh': zh, 'name.en': en }).filter(([, v]) => v !== undefined),
        ) as Record<string, string>,
    );
  };
  const indices = (n: number) => Array.from({ length: n }, (_, i) => i);

  const addRole = () => reshape([...draft.roles, emptyRole()], [...indices(draft.roles.length), null]);
  const moveRole = (i: number, to: number) => {
    const order = indices(draft.roles.length);
    order.splice(to, 0, ...order.splice(i, 1));
    reshape(
      order.map((k) => draft.roles[k]!),
      order,
    );
  };
  const removeRole = (i: number) => {
    const order = indices(draft.roles.length).filter((k) => k !== i);
    const remove = () =>
      reshape(
        order.map((k) => draft.roles[k]!),
        order,
      );
    const uses = editor.current ? roleUses(editor.current.body(), i) : 0;
    if (uses === 0) return remove();
    const role = draft.roles[i]!;
    modal.confirm({
      title: t('templates.removeDrawn', '删除角色“{{name}}”？', {
        name: role.name[lang] || role.key || `#${i + 1}`,
      }),
      content: t(
        'templates.removeDrawnHint',
        '画面中有 {{n}} 个元素绑定此角色，删除后它们将解除绑定（阈值规则一并清除）。',
        {
          n: uses,
        },
      ),
      okText: t('templates.remove', '删除'),
      okButtonProps: { danger: true, 'data-testid': 'role-remove-ok' } as ButtonProps,
      cancelText: t('templates.cancel', '取消'),
      onOk: remove,
    });
  };

  const name = draft.name[lang].trim() || t('templates.untitled', '未命名模板');
  const points = useMemo(
    () =>
      rolePoints(
        rolesOf(draft).map((r, i) => ({
          ...r,
          name: { zh: r.name.zh || r.key || `#${i + 1}`, en: r.name.en || r.key || `#${i + 1}` },
        })),
        name,
        lang,
      ),
    [draft, name, lang],
  );

  /** the canvas with the names in place of {template} and {role}, as a device's chart shows them */
  const preview = useCallback(
    (body: ScreenBody) => {
      const roles = points.map((p, i) => ({
        key: `r${i}`,
        name: { zh: p.fieldName, en: p.fieldName },
        unit: p.unit ?? '',
      }));
      const map = Object.fromEntries(roles.map((r, i) => [r.key, roleBinding(i)]));
      return placeTemplate({ name: { zh: name, en: name }, roles, body }, map, lang);
    },
    [points, name, lang],
  );

  const save = async (body: ScreenBody) => {
    const found = checkDraft(draft);
    if (Object.keys(found).length > 0) {
      setErrors(Object.fromEntries(Object.entries(found).map(([k, p]) => [k, problemText(p)])));
      setFormOpen(true);
      message.error(t('templates.fixForm', '请先改正模板信息中标出的错误'));
      return false;
    }
    try {
      const roles = rolesOf(draft);
      const sent = {
        ...(id === null ? {} : { id, version: version ?? undefined }),
        code: draft.code.trim(),
        name: { zh: draft.name.zh.trim(), en: draft.name.en.trim() },
        roles,
        body,
      };
      const envelope = await templatesApi.save(sent);
      message.success(envelope.message || t('templates.saved', '已保存'));
      setErrors({});
      setSavedSignature(draftSignature(draft));
      setVersion(envelope.data.version);
      setBuiltin(false);
      const full: TemplateFull = {
        ...sent,
        id: envelope.data.id,
        builtin: false,
        version: envelope.data.version,
      };
      queryClient.setQueryData(templateKeys.one(envelope.data.id), full);
      void queryClient.invalidateQueries({ queryKey: templateKeys.list() });
      if (id === null) onCreated(envelope.data.id);
      return true;
    } catch (error) {
      const field = error instanceof ApiError ? (error.data as { field?: string } | null)?.field : undefined;
      // the drawing's own refusals are the editor's to show
      if (!field || field.startsWith('body')) throw error;
      // saved by someone else since it was opened: theirs is not overwritten
      if (field === 'version') {
        modal.error({
          title: t('templates.changedTitle', '模板已被他人修改'),
          content: (error as Error).message,
        });
        return false;
      }
      setErrors((e) => ({ ...e, [field]: (error as Error).message }));
      setFormOpen(true);
      message.error((error as Error).message);
      return false;
    }
  };

  const back = () => {
    if (!formDirty && !drawingDirty) return onBack();
    modal.confirm({
      title: t('templates.leaveTitle', '放弃未保存的修改？'),
      content: t('templates.leaveHint', '模板信息或画面有未保存的修改，离开后将丢失。'),
      okText: t('templates.leave', '放弃并离开'),
      okButtonProps: { danger: true, 'data-testid': 'leave-ok' } as ButtonProps,
      cancelText: t('templates.stay', '继续编辑'),
      onOk: onBack,
    });
  };

  const field = (path: string) =>
    errors[path] ? { validateStatus: 'error' as const, help: errors[path] } : {};
  const onDirty = useCallback((d: boolean) => setDrawingDirty(d), []);

  return (
    <div className="fc-template-editor" data-testid="template-editor">
      <Collapse
        className="fc-template-form"
        activeKey={formOpen ? ['form'] : []}
        onChange={(keys) => setFormOpen(keys.includes('form'))}
        items={[
          {
            key: 'form',
            label: (
              <span data-testid="template-form-toggle">
                <Typography.Text strong>{t('templates.details', '模板信息与角色')}</Typography.Text>
                <Typography.Text type="secondary" className="fc-form-summary">
                  {draft.code || '—'} ·{' '}
                  {t('templates.roleSummary', '{{count}} 个角色', { count: draft.roles.length })}
                </Typography.Text>
                {Object.keys(errors).length > 0 ? (
                  <Tag color="error" className="fc-form-summary">
                    {t('templates.hasErrors', '有错误')}
                  </Tag>
                ) : null}
              </span>
            ),
            children: (
              <>
                <Form layout="vertical" component="div" className="fc-form-grid">
                  <Form.Item
                    label={t('templates.code', '编码')}
                    required
                    {...field('code')}
                    data-testid="template-code-item"
                  >
                    <Input
                      value={draft.code}
                      maxLength={FAMILY_LIMITS.code}
                      placeholder="meter-cabinet"
                      onChange={(e) => change({ ...draft, code: e.target.value }, 'code')}
                      data-testid="template-code"
                    />
                  </Form.Item>
                  <Form.Item
                    label={t('templates.nameZh', '中文名称')}
                    required
                    {...field('name.zh')}
                    data-testid="template-name-zh-item"
                  >
                    <Input
                      value={draft.name.zh}
                      maxLength={FAMILY_LIMITS.name}
                      onChange={(e) =>
                        change({ ...draft, name: { ...draft.name, zh: e.target.value } }, 'name.zh')
                      }
                      data-testid="template-name-zh"
                    />
                  </Form.Item>
                  <Form.Item
                    label={t('templates.nameEn', '英文名称')}
                    required
                    {...field('name.en')}
                    data-testid="template-name-en-item"
                  >
                    <Input
                      value={draft.name.en}
                      maxLength={FAMILY_LIMITS.name}
                      onChange={(e) =>
                        change({ ...draft, name: { ...draft.name, en: e.target.value } }, 'name.en')
                      }
                      data-testid="template-name-en"
                    />
                  </Form.Item>
                </Form>
                <RolesTable
                  roles={draft.roles}
                  errors={errors}
                  disabled={false}
                  onChange={(i, role) => {
                    setDraft((d) => ({ ...d, roles: d.roles.map((r, k) => (k === i ? role : r)) }));
                    setErrors((e) =>
                      Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith(`roles[${i}]`))),
                    );
                  }}
                  onAdd={addRole}
                  onMove={moveRole}
                  onRemove={removeRole}
                />
              </>
            ),
          },
        ]}
      />
      <ScreenEditor
        handle={editor}
        initial={initialBody}
        stored={id !== null}
        points={points}
        commands={null}
        readOnly={false}
        title={
          <Button
            type="text"
            size="small"
            icon={<ArrowLeftOutlined />}
            onClick={back}
            data-testid="template-back"
          >
            {t('templates.backToList', '模板列表')}
          </Button>
        }
        subtitle={name}
        tags={
          <>
            {id === null ? (
              <Tag color="blue">{t('templates.newTag', '新模板')}</Tag>
            ) : (
              <Tag data-testid="template-version">v{version}</Tag>
            )}
            {builtin ? <Tag color="gold">{t('templates.builtin', '内置')}</Tag> : null}
          </>
        }
        extraDirty={formDirty}
        onDirty={onDirty}
        onSave={save}
        preview={preview}
      />
    </div>
  );
}
