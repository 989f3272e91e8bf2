import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Refused } from '../model';

/**
 * A refused operation: the server's message, and below it every serial number it refused with
 * its own message, so a paste of fifty shows each bad line at once. `onDrop` offers to take the
 * refused serial numbers out of the input.
 */
export function RefusalAlert({
  refused,
  onClose,
  onDrop,
  testId = 'inv-refusal',
}: {
  refused: Refused | null;
  onClose: () => void;
  onDrop?: () => void;
  testId?: string;
}) {
  const { t } = useTranslation('inventory');
  if (!refused) return null;
  const named = refused.refusals.filter((r) => r.sn);
  return (
    <Alert
      type="error"
      showIcon
      closable={{ onClose }}
      className="inv-alert"
      title={refused.message}
      description={
        refused.refusals.length ? (
          <div>
            {named.length ? (
              <div className="inv-muted">{t('refusal.count', { count: named.length })}</div>
            ) : null}
            <ul className="inv-refusals" data-testid={`${testId}-list`}>
              {refused.refusals.map((r) => (
                <li key={`${r.sn ?? ''}:${r.message}`} data-testid={`${testId}-item`}>
                  {r.sn ? <span className="inv-mono inv-refused-sn">{r.sn}</span> : null}
                  <span>{r.message}</span>
                </li>
              ))}
            </ul>
          </div>
        ) : undefined
      }
      action={
        onDrop && named.length ? (
          <Button size="small" onClick={onDrop} data-testid={`${testId}-drop`}>
            {t('refusal.drop')}
          </Button>
        ) : undefined
      }
      data-testid={testId}
    />
  );
}
