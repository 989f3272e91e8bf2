import { messageFor } from '@platform/domain';
import { App, Upload } from 'antd';
import type { ReactNode } from 'react';
import { currentLang } from '../app/i18n';
import { checkImageFile, IMAGE_ACCEPT } from './imageFile';

interface ImageUploadProps {
  /** called with a file that passed the checks; the upload itself is the caller's */
  onFile: (file: File) => void | Promise<void>;
  disabled?: boolean;
  testId?: string;
  children: ReactNode;
}

/**
 * An image picker that refuses anything but JPG/PNG up to 3 MB before it leaves the browser,
 * with the error catalogue's messages in the current language.
 */
export function ImageUpload({ onFile, disabled, testId, children }: ImageUploadProps) {
  const { message } = App.useApp();
  return (
    <span data-testid={testId} style={{ display: 'inline-block' }}>
      <Upload
        accept={IMAGE_ACCEPT}
        showUploadList={false}
        maxCount={1}
        disabled={disabled}
        beforeUpload={async (file) => {
          const problem = await checkImageFile(file);
          if (problem) message.error(messageFor(problem, currentLang()));
          else await onFile(file);
          return Upload.LIST_IGNORE;
        }}
      >
        {children}
      </Upload>
    </span>
  );
}
