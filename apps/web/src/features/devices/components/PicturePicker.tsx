/**
 * A device's picture: one of the preset drawings, or a JPG/PNG photo of at most 3 MB (spec
 * points 5 and 9), refused in the browser with the catalogue's two messages before anything is
 * sent (the server checks the bytes again). A choice takes effect at once.
 */
import { UploadOutlined } from '@ant-design/icons';
import { DEVICE_PICTURE_PRESETS } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Flex, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ImageUpload } from '../../../shared/ImageUpload';
import { uploadImage } from '../../../shared/imageFile';
import { type DevicePicture, type DeviceRow, deviceApi, deviceKeys } from '../api';
import { DevicePictureView } from './DeviceBits';
import { PresetIcon } from './PresetIcon';

export function PicturePicker({
  device,
  disabled,
  onChanged,
}: {
  device: Pick<DeviceRow, 'id' | 'picture'>;
  disabled?: boolean;
  onChanged?: (picture: DevicePicture) => void;
}) {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const current = 'preset' in device.picture ? device.picture.preset : null;

  const done = (picture: DevicePicture) => {
    void client.invalidateQueries({ queryKey: deviceKeys.all });
    onChanged?.(picture);
  };

  const choose = async (preset: string) => {
    if (preset === current) return;
    setBusy(true);
    try {
      const envelope = await deviceApi.update({ id: device.id, picture: preset });
      message.success(envelope.message);
      done({ preset });
    } catch {
      // the http client showed why
    } finally {
      setBusy(false);
    }
  };

  const upload = async (file: File) => {
    setBusy(true);
    try {
      const envelope = await uploadImage<{ picture: DevicePicture }>(
        `/devicemanagement/device/uploadPicture?id=${device.id}`,
        file,
      );
      message.success(envelope.message);
      done(envelope.data.picture);
    } catch {
      // the http client showed why
    } finally {
      setBusy(false);
    }
  };

  return (
    <div data-testid="picture-picker">
      <Flex gap={8} wrap className="dv-gallery">
        {DEVICE_PICTURE_PRESETS.map((preset) => (
          <Tooltip key={preset} title={t(`preset.${preset}`, preset)}>
            <button
              type="button"
              className={`dv-gallery-item${preset === current ? ' selected' : ''}`}
              disabled={disabled || busy}
              aria-pressed={preset === current}
              aria-label={t(`preset.${preset}`, preset)}
              onClick={() => choose(preset)}
              data-testid={`picture-preset-${preset}`}
            >
              <PresetIcon preset={preset} size={34} />
            </button>
          </Tooltip>
        ))}
        {'url' in device.picture ? (
          <span className="dv-gallery-item selected" data-testid="picture-photo">
            <DevicePictureView picture={device.picture} size={42} />
          </span>
        ) : null}
      </Flex>
      <Flex gap={8} align="center" wrap className="dv-gap-top">
        <ImageUpload onFile={upload} disabled={disabled || busy} testId="picture-upload">
          <Button icon={<UploadOutlined />} loading={busy} disabled={disabled}>
            {t('picture.upload', '上传照片')}
          </Button>
        </ImageUpload>
        <Typography.Text type="secondary" className="dv-small">
          {t('picture.rule', 'JPG 或 PNG，不超过 3 MB')}
        </Typography.Text>
      </Flex>
    </div>
  );
}
