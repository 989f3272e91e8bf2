import { GATEWAY_NODE_TYPES, type GatewayNodeType } from '@platform/domain';
import { Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { NODE_COLORS, NODE_ICONS } from './nodeIcons';

export const DRAG_TYPE = 'application/x-gateway-node';

/** The twelve node types: drag one onto the canvas, or click (or press Enter on) it to add it below the others. */
export function Palette({
  onAdd,
  count,
  max,
}: {
  onAdd: (type: GatewayNodeType) => void;
  count: number;
  max: number;
}) {
  const { t } = useTranslation('gatewayconfig');
  return (
    <aside className="gc-palette" aria-label={t('editor.palette')}>
      <div className="gc-palette-head">
        <Typography.Text strong>{t('editor.palette')}</Typography.Text>
        <Typography.Text type={count >= max ? 'danger' : 'secondary'} data-testid="gc-node-count">
          {t('editor.nodeCount', { count, max })}
        </Typography.Text>
      </div>
      <Typography.Text type="secondary" className="gc-palette-hint">
        {t('editor.paletteHint')}
      </Typography.Text>
      <div className="gc-palette-list">
        {GATEWAY_NODE_TYPES.map((type) => {
          const Icon = NODE_ICONS[type];
          return (
            <Tooltip key={type} title={t(`typeHints.${type}`)} placement="right" mouseEnterDelay={0.6}>
              <button
                type="button"
                className="gc-palette-item"
                draggable
                data-testid={`gc-palette-${type}`}
                onDragStart={(event) => {
                  event.dataTransfer.setData(DRAG_TYPE, type);
                  event.dataTransfer.effectAllowed = 'copy';
                }}
                onClick={() => onAdd(type)}
              >
                <span className="gc-palette-icon" style={{ color: NODE_COLORS[type] }}>
                  <Icon />
                </span>
                <span>{t(`types.${type}`)}</span>
              </button>
            </Tooltip>
          );
        })}
      </div>
    </aside>
  );
}
