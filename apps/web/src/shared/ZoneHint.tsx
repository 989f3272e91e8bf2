import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { offsetLabel, useCompanyZone, zoneDiffers } from './time';

/**
 * Says which zone the times beside it are in ("UTC+8", the zone's name on hover), only when
 * the browser reads another clock than the company: otherwise the times need no saying.
 * `zone`: the zone the times were written in, when the server says (default the company's).
 * `full` shows the name too ("Asia/Shanghai UTC+8"), for a single time with room around it.
 */
export function ZoneHint({ full = false, zone: given }: { full?: boolean; zone?: string }) {
  const { t } = useTranslation();
  const company = useCompanyZone();
  const zone = given ?? company;
  if (!zoneDiffers(zone)) return null;
  const offset = offsetLabel(zone);
  const title = t('timeZone.hint', '按公司时区 {{zone}}（{{offset}}）显示', { zone, offset });
  return (
    <Tooltip title={title}>
      <span className="zone-hint" data-testid="zone-hint" data-zone={zone}>
        {full ? `${zone} ${offset}` : offset}
      </span>
    </Tooltip>
  );
}
