import { Button, Card, Input, Space } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../../../app/store/session';
import { usePaging } from '../../../shared/paging';
import { usePackets } from '../api';
import { useLabels } from '../components/labels';
import { PacketTable } from '../components/PacketTable';
import { dcPaths } from '../paths';
import '../devicecommunication.css';

/** /devicecommunication/parsing: each packet with its parser; opens the parser of one. */
export default function DataParsingPage() {
  const { t } = useLabels();
  const navigate = useNavigate();
  const canDefine = useSession().user?.menuCode.includes('cd_data_package') ?? false;
  const { paging, pagination, reset } = usePaging();
  const [keyword, setKeyword] = useState('');
  const packets = usePackets('parsing', paging, keyword);

  const empty = keyword ? (
    t('packets.noMatch', '没有符合“{{keyword}}”的数据包', { keyword })
  ) : (
    <Space direction="vertical" align="center">
      {t('parsing.empty', '还没有数据包。先定义网关发送的数据包，再为它配置解析。')}
      {canDefine ? (
        <Button type="primary" onClick={() => navigate(dcPaths.newPacket)}>
          {t('packets.add', '新增数据包')}
        </Button>
      ) : null}
    </Space>
  );

  return (
    <Card variant="borderless" title={t('parsing.title', '数据解析')} data-testid="parsing-page">
      <div className="dc-toolbar">
        <Input.Search
          className="dc-search"
          allowClear
          placeholder={t('packets.search', '搜索数据包名称')}
          onSearch={(value) => {
            setKeyword(value.trim());
            reset();
          }}
        />
      </div>
      <PacketTable
        mode="parsing"
        packets={packets.data?.list ?? []}
        loading={packets.isFetching}
        pagination={pagination(packets.data)}
        empty={empty}
        onParse={(row) => navigate(dcPaths.parser(row.id))}
      />
    </Card>
  );
}
