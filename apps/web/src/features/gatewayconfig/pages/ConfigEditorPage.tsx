import { ReactFlowProvider } from '@xyflow/react';
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { useConfig } from '../api';
import { ConfigEditor } from '../components/ConfigEditor';
import { ConfigState } from '../components/ConfigState';
import '../gatewayconfig.css';

/**
 * /smartdata/device/deviceconfig/:deviceId and /smartdata/device/dtu/config/:deviceId — the
 * node editor of a gateway's configuration (the DTU route lists the DTU template first).
 * React Flow loads with this page only.
 */
export function EditorPage({ dtu }: { dtu: boolean }) {
  const { t } = useTranslation('gatewayconfig');
  const id = Number(useParams().deviceId);
  const view = useConfig(id);
  if (!Number.isInteger(id) || id <= 0) return <Result status="404" title={t('badLink')} />;
  if (view.isLoading) return <ConfigState kind="loading" />;
  if (!view.data) return <ConfigState kind="notFound" />;
  return (
    <ReactFlowProvider>
      <ConfigEditor deviceId={id} dtu={dtu} />
    </ReactFlowProvider>
  );
}

export default function ConfigEditorPage() {
  return <EditorPage dtu={false} />;
}
