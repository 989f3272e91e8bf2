/** Edit a device's name and address (read-write level); its picture changes at once below. */
import { useQueryClient } from '@tanstack/react-query';
import { App, Divider, Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validated } from '../../../shared/validated';
import { cabinNameRule } from '../../datacabin/cabin';
import { type DeviceRow, deviceApi, deviceKeys } from '../api';
import { showFieldError } from '../form';
import { PicturePicker } from './PicturePicker';

/** the server's limit on an address */
export const ADDRESS_MAX = 100;

interface Values {
  name: string;
  address: string;
}

export function EditDeviceModal({ device, onClose }: { device: DeviceRow | null; onClose: () => void }) {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  // the picture shown follows the choice made in this dialog
  const [picture, setPicture] = useState(device?.picture);

  useEffect(() => {
    if (device) {
      form.setFieldsValue({ name: device.name, address: device.address });
      setPicture(device.picture);
    }
  }, [device, form]);

  const submit = async () => {
    if (!device) return;
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const envelope = await deviceApi.update({
        id: device.id,
        name: values.name.trim(),
        address: (values.address ?? '').trim(),
      });
      message.success(envelope.message);
      void client.invalidateQueries({ queryKey: deviceKeys.all });
      onClose();
    } catch (error) {
      showFieldError(form, error, ['name', 'address']);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={device != null}
      title={t('edit.title', '编辑设备：{{sn}}', { sn: device?.serialNumber ?? '' })}
      okText={t('common.save', '保存')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'edit-ok' } as never}
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="name" label={t('fields.name', '设备名称')} rules={[cabinNameRule('device')]}>
          <Input data-testid="edit-name" maxLength={60} />
        </Form.Item>
        <Form.Item
          name="address"
          label={t('fields.address', '安装地址')}
          rules={[{ max: ADDRESS_MAX, message: t('edit.addressTooLong', '地址不能超过 100 个字符') }]}
        >
          <Input.TextArea data-testid="edit-address" autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
      {device && picture ? (
        <>
          <Divider titlePlacement="start" plain>
            {t('fields.picture', '设备图片')}
          </Divider>
          <PicturePicker device={{ id: device.id, picture }} onChanged={setPicture} />
        </>
      ) : null}
    </Modal>
  );
}
