import { Empty } from 'antd';

/** A table's `locale` that says why it is empty. */
export function emptyLocale(description: string) {
  return { emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={description} /> };
}
