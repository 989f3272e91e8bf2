import { ArrowLeftOutlined } from '@ant-design/icons';
import { Alert, Card, Skeleton, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** A detail page's way back to its list. */
export function BackLink({ to, label, testId }: { to: string; label: string; testId: string }) {
  return (
    <Link to={to} data-testid={testId}>
      <ArrowLeftOutlined /> {label}
    </Link>
  );
}

/**
 * What a detail page shows before its object: a skeleton while it loads, or why it could not
 * (with the way back). Null once the object is there.
 */
export function DetailFallback({
  query,
  back,
  failed,
  testId,
}: {
  query: { isError: boolean; data: unknown };
  back: ReactNode;
  failed: string;
  testId: string;
}) {
  if (query.isError)
    return (
      <Card variant="borderless" data-testid={testId}>
        {back}
        <Alert type="error" showIcon className="inv-alert-top" title={failed} />
      </Card>
    );
  if (query.data === undefined)
    return (
      <Card variant="borderless" data-testid={testId}>
        <Skeleton active />
      </Card>
    );
  return null;
}

/** A detail page's head: the way back, the object's title with its tags, and its buttons. */
export function DetailHead({
  back,
  title,
  titleTestId,
  mono = false,
  tags,
  extra,
}: {
  back: ReactNode;
  title: string;
  titleTestId: string;
  mono?: boolean;
  tags: ReactNode;
  extra: ReactNode;
}) {
  return (
    <>
      <div className="inv-detail-top">{back}</div>
      <div className="inv-header">
        <Space wrap size={8} align="center">
          <Typography.Title
            level={4}
            className={mono ? 'inv-title inv-mono' : 'inv-title'}
            data-testid={titleTestId}
          >
            {title}
          </Typography.Title>
          {tags}
        </Space>
        {extra}
      </div>
    </>
  );
}
