import { PaperClipOutlined } from '@ant-design/icons';
import type { FieldDef, RecordValue } from '@platform/domain';
import { Flex, Image, Typography } from 'antd';
import { formatValue, isFiles } from '../format';

/** A value as the table shows it: pictures as thumbnails with preview, files as download links. */
export function ValueCell({ field, value }: { field: FieldDef; value: RecordValue | undefined }) {
  if (isFiles(value)) {
    if (!value.length) return null;
    if (field.type === 8) {
      return (
        <Image.PreviewGroup>
          <Flex gap={4} wrap>
            {value.map((file) => (
              <Image
                key={file.url}
                src={file.thumbUrl ?? file.url}
                preview={{ src: file.url }}
                alt={file.name}
                width={40}
                height={40}
                className="dr-thumb"
              />
            ))}
          </Flex>
        </Image.PreviewGroup>
      );
    }
    return (
      <Flex vertical gap={2}>
        {value.map((file) => (
          <a key={file.url} href={file.url} download={file.name} target="_blank" rel="noreferrer">
            <PaperClipOutlined /> {file.name}
          </a>
        ))}
      </Flex>
    );
  }
  const text = formatValue(field, value);
  if (field.type === 6) {
    return (
      <Typography.Paragraph ellipsis={{ rows: 2, tooltip: text }} style={{ marginBottom: 0 }}>
        {text}
      </Typography.Paragraph>
    );
  }
  return <span>{text}</span>;
}
