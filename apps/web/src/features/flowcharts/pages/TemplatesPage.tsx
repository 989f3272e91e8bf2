/**
 * System maintenance systemnss3dfw (system_nss3dfw, the platform operator's): the device-family
 * flow chart templates (issue 13 point 7). The list on the page's own path; one template in the
 * editor at `?id=N`, a new one at `?new=1`, a copy of one at `?copy=N` (saved as a new template).
 * The editor needs a wide screen, as the configuration screen editor does.
 */
import { emptyScreen } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Grid, Result, Skeleton } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { TemplateEditor } from '../components/TemplateEditor';
import { TemplateList } from '../components/TemplateList';
import { copyDraft, draftOf, emptyRole } from '../templateDraft';
import { templateKeys, useTemplate, useTemplateList } from '../templatesApi';
import '../templates.css';

const idOf = (v: string | null) => {
  const n = Number(v);
  return v !== null && Number.isInteger(n) && n > 0 ? n : null;
};

function Loading() {
  return <Skeleton active className="fc-page-narrow" />;
}

export default function TemplatesPage() {
  const { t } = useTranslation('flowcharts');
  const [params, setParams] = useSearchParams();
  const screens = Grid.useBreakpoint();
  const id = idOf(params.get('id'));
  const copyOf = idOf(params.get('copy'));
  const isNew = params.get('new') === '1';
  const open = id ?? copyOf;
  const source = useTemplate(open);
  const list = useTemplateList();
  const taken = useMemo(() => new Set((list.data ?? []).map((x) => x.code)), [list.data]);

  const queryClient = useQueryClient();
  const toList = () => {
    // the next opening reads the template afresh (someone may have changed it meanwhile)
    if (open !== null) queryClient.removeQueries({ queryKey: templateKeys.one(open) });
    setParams({});
  };
  if (open === null && !isNew)
    return (
      <TemplateList
        onEdit={(n) => setParams({ id: String(n) })}
        onCopy={(n) => setParams({ copy: String(n) })}
        onNew={() => setParams({ new: '1' })}
      />
    );

  if (screens.md === false)
    return (
      <Result
        status="info"
        title={t('templates.narrow', '编辑模板需要更宽的屏幕')}
        subTitle={t('templates.narrowHint', '请在电脑上编辑模板；在手机上可以查看模板列表。')}
        data-testid="template-edit-narrow"
        extra={
          <Button type="primary" onClick={toList}>
            {t('templates.backToList', '模板列表')}
          </Button>
        }
      />
    );

  if (isNew)
    return (
      <TemplateEditor
        key="new"
        id={null}
        initialDraft={{ code: '', name: { zh: '', en: '' }, roles: [emptyRole()] }}
        initialBody={{ ...emptyScreen(), background: '#0b1a2e' }}
        version={null}
        builtin={false}
        onCreated={(n) => setParams({ id: String(n) }, { replace: true })}
        onBack={toList}
      />
    );

  if (source.isLoading || (copyOf !== null && list.isLoading)) return <Loading />;
  if (!source.data)
    return (
      <Result
        status="404"
        title={t('templates.missing', '该模板不存在（可能已被删除）')}
        extra={<Button onClick={toList}>{t('templates.backToList', '模板列表')}</Button>}
      />
    );
  const tpl = source.data;
  if (copyOf !== null)
    return (
      <TemplateEditor
        key={`copy-${copyOf}`}
        id={null}
        initialDraft={copyDraft(tpl, taken)}
        initialBody={tpl.body}
        version={null}
        builtin={false}
        onCreated={(n) => setParams({ id: String(n) }, { replace: true })}
        onBack={toList}
      />
    );
  return (
    <TemplateEditor
      key={`id-${tpl.id}`}
      id={tpl.id}
      initialDraft={draftOf(tpl)}
      initialBody={tpl.body}
      version={tpl.version}
      builtin={tpl.builtin}
      onCreated={() => undefined}
      onBack={toList}
    />
  );
}
