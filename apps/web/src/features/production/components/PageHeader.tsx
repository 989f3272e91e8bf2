import { Typography } from 'antd';
import type { ReactNode } from 'react';

/** A page's title with its hint below, and what the page offers beside them (wrapping below on a phone). */
export function PageHeader({
  title,
  hint,
  children,
}: {
  title: ReactNode;
  hint?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="production-header">
      <div>
        <Typography.Title level={4} className="production-title">
          {title}
        </Typography.Title>
        {hint ? <Typography.Text type="secondary">{hint}</Typography.Text> : null}
      </div>
      {children}
    </div>
  );
}
