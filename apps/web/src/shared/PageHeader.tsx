import { Typography } from 'antd';
import type { ReactNode } from 'react';
import './page.css';

/**
 * A page's title, what it is for below it, and its buttons beside them (wrapping under the
 * title on a phone).
 */
export function PageHeader({
  title,
  hint,
  extra,
  className,
}: {
  title: ReactNode;
  hint?: ReactNode;
  extra?: ReactNode;
  /** besides the header's own class (a page's spacing) */
  className?: string;
}) {
  return (
    <div className={className ? `page-header ${className}` : 'page-header'}>
      <div className="page-header-text">
        <Typography.Title level={4} className="page-header-title">
          {title}
        </Typography.Title>
        {hint ? <Typography.Text type="secondary">{hint}</Typography.Text> : null}
      </div>
      {extra ? <div className="page-header-actions">{extra}</div> : null}
    </div>
  );
}
