import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Input } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../../../app/store/session';
import { usePaging } from '../../../shared/paging';
import { dcApi, usePackets } from '../api';
import { useLabels } from '../components/labels';
import { PacketTable } from '../components/PacketTable';
import { dcPaths } from '../paths';
import '../devicecommunication.css';

/** /devicecommunication/datapackage: the company's serial packets; search, create, edit, delete. */
export default function DataPackagePage() {
  const { t } = useLabels();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const canParse = useSession().user?.menuCode.includes('cd_parsing') ?? false;
  const { paging, pagination, reset, stepBackIfEmpty } = usePaging();
  const [keyword, setKeyword] = useState('');
  const packets = usePackets('packets', paging, keyword);

  const remove = async (id: number) => {
    try {
      const envelope = await dcApi.remove(id);
      message.success(envelope.message);
      const page = await packets.refetch();
      stepBackIfEmpty(page.data);
    } catch {
      // the http client showed the error
    }
  };

  return (
    <Card variant="borderless" title={t('packets.title', '串口数据包')} data-testid="packets-page">
      <div className="dc-toolbar">
        <Input.Search
          className="dc-search"
          allowClear
          placeholder={t('packets.search', '搜索数据包名称')}
          onSearch={(value) => {
            setKeyword(value.trim());
            reset();
          }}
          data-testid="packets-search"
        />
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => navigate(dcPaths.newPacket)}
          data-testid="packet-add"
        >
          {t('packets.add', '新增数据包')}
        </Button>
      </div>
      <PacketTable
        mode="packets"
        packets={packets.data?.list ?? []}
        loading={packets.isFetching}
        pagination={pagination(packets.data)}
        empty={
          keyword
            ? t('packets.noMatch', '没有符合“{{keyword}}”的数据包', { keyword })
            : t(
                'packets.empty',
                '还没有数据包。数据包是网关在串口上定时发送的报文，例如 Modbus 读寄存器命令。',
              )
        }
        onEdit={(row) => navigate(dcPaths.packet(row.id))}
        onParse={canParse ? (row) => navigate(dcPaths.parser(row.id)) : undefined}
        onDelete={(row) => void remove(row.id)}
      />
    </Card>
  );
}
