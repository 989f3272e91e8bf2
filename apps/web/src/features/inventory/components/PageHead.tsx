import { Typography } from 'antd';
import type { ReactNode } from 'react';

/** A page's title, what it is for, and its buttons (wrapping under the title on a phone). */
export function PageHead({ title, hint, extra }: { title: ReactNode; hint?: ReactNode; extra?: ReactNode }) {
  return (
    <div className="inv-header">
      <div className="inv-header-text">
        <Typography.Title level={4} className="inv-title">
          {title}
        </Typography.Title>
        {hint ? <Typography.Text type="secondary">{hint}</Typography.Text> : null}
      </div>
      {extra ? <div className="inv-actions">{extra}</div> : null}
    </div>
  );
}
