import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { messageFor, type StoredFile } from '@platform/domain';
import { App, Button, Upload, type UploadFile } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLang } from '../../../app/i18n';
import { checkImageFile, IMAGE_ACCEPT } from '../../../shared/imageFile';
import { drApi } from '../api';
import { type ImageShape, shapeImage } from './imageResize';

interface FilesInputProps {
  itemId: number;
  field: string;
  picture: boolean;
  value?: StoredFile[] | null;
  onChange?: (value: StoredFile[]) => void;
  maxCount?: number;
  shape?: ImageShape;
  testId?: string;
}

function toUploadFile(file: StoredFile, index: number): UploadFile {
  return {
    uid: `${index}-${file.url}`,
    name: file.name,
    status: 'done',
    url: file.url,
    thumbUrl: file.thumbUrl ?? file.url,
    size: file.size,
  };
}

/**
 * Picture (type 8) and file (type 9) values: each chosen file goes to /smartdata/record/upload
 * and the returned StoredFile joins the value. Pictures are checked in the browser first (JPG
 * or PNG, at most 3 MB) with the spec's messages, so a refused file never leaves the browser.
 */
export function FilesInput({
  itemId,
  field,
  picture,
  value,
  onChange,
  maxCount,
  shape,
  testId,
}: FilesInputProps) {
  const { t } = useTranslation('datarecords');
  const { message } = App.useApp();
  const files = value ?? [];
  const full = maxCount != null && files.length >= maxCount;

  return (
    <div data-testid={testId}>
      <Upload
        accept={picture ? IMAGE_ACCEPT : undefined}
        listType={picture ? 'picture-card' : 'text'}
        fileList={files.map(toUploadFile)}
        multiple={!maxCount || maxCount > 1}
        onRemove={(removed) => {
          onChange?.(files.filter((f, i) => toUploadFile(f, i).uid !== removed.uid));
          return false;
        }}
        beforeUpload={async (file) => {
          if (picture) {
            const problem = await checkImageFile(file);
            if (problem) {
              message.error(messageFor(problem, currentLang()));
              return Upload.LIST_IGNORE;
            }
          }
          try {
            const toSend = picture && shape ? await shapeImage(file, shape) : file;
            const envelope = await drApi.upload(itemId, field, toSend, file.name);
            const next = [...(value ?? []), envelope.data];
            onChange?.(maxCount ? next.slice(-maxCount) : next);
          } catch {
            // the http client showed the error
          }
          return Upload.LIST_IGNORE;
        }}
      >
        {full ? null : picture ? (
          <div className="dr-upload-card">
            <PlusOutlined />
            <div>{t('upload.picture', '上传图片')}</div>
          </div>
        ) : (
          <Button icon={<UploadOutlined />}>{t('upload.file', '上传文件')}</Button>
        )}
      </Upload>
    </div>
  );
}
