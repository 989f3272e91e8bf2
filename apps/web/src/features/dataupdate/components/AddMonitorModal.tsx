import { App, Empty, Input, Modal, Radio, Space, Spin, Table, Tabs, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CandidateNode, dataUpdateApi, useCandidates, WINDOWS, type WindowMinutes } from '../api';

interface Branch {
  node: CandidateNode;
  children: Branch[];
}

function branches(nodes: CandidateNode[]): Branch[] {
  const byId = new Map(nodes.map((n) => [n.id, { node: n, children: [] as Branch[] }]));
  const roots: Branch[] = [];
  for (const b of byId.values()) {
    const parent = b.node.parentId === null ? undefined : byId.get(b.node.parentId);
    if (parent) parent.children.push(b);
    else roots.push(b);
  }
  return roots;
}

/**
 * Add monitors: pick data items from the cabin tree and devices from a list, each with a search
 * box (type a name, then tick it), the picks kept across searches and shown as tags; and one
 * window of 30, 60, 720 or 1440 minutes for all of them.
 */
export function AddMonitorModal({
  open,
  onClose,
  onAdded,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: () => void;
}) {
  const { t } = useTranslation('dataupdate');
  const { message } = App.useApp();
  const candidates = useCandidates(open);
  const [windowMinutes, setWindowMinutes] = useState<WindowMinutes>(30);
  const [items, setItems] = useState<Map<number, string>>(new Map());
  const [devices, setDevices] = useState<Map<number, string>>(new Map());
  const [itemKeyword, setItemKeyword] = useState('');
  const [deviceKeyword, setDeviceKeyword] = useState('');
  const [saving, setSaving] = useState(false);

  const toggle = (set: typeof setItems, id: number, name: string, on?: boolean) =>
    set((prev) => {
      const next = new Map(prev);
      if (on ?? !next.has(id)) next.set(id, name);
      else next.delete(id);
      return next;
    });

  const { treeData, itemCount } = useMemo(() => {
    const keyword = itemKeyword.trim().toLowerCase();
    let count = 0;
    const convert = (list: Branch[], parentMatches: boolean): DataNode[] =>
      list.flatMap((b): DataNode[] => {
        const n = b.node;
        const matches = parentMatches || keyword === '' || n.name.toLowerCase().includes(keyword);
        if (n.type === 'dataItem' && n.itemId !== null) {
          if (!matches) return [];
          count += 1;
          return [
            {
              key: n.itemId,
              isLeaf: true,
              disableCheckbox: n.watched,
              title: (
                <span data-testid={`candidate-item-${n.itemId}`}>
                  {n.name} {n.watched && <Tag>{t('add.watched')}</Tag>}
                </span>
              ),
            },
          ];
        }
        const children = convert(b.children, matches && keyword !== '');
        if (children.length === 0) return [];
        return [{ key: `d${n.id}`, title: n.name, checkable: false, selectable: false, children }];
      });
    const data = convert(branches(candidates.data?.nodes ?? []), false);
    return { treeData: data, itemCount: count };
  }, [candidates.data, itemKeyword, t]);

  const nameOfItem = useMemo(
    () =>
      new Map(
        (candidates.data?.nodes ?? []).filter((n) => n.itemId !== null).map((n) => [n.itemId!, n.name]),
      ),
    [candidates.data],
  );
  const deviceRows = useMemo(() => {
    const keyword = deviceKeyword.trim().toLowerCase();
    return (candidates.data?.devices ?? []).filter(
      (d) =>
        keyword === '' ||
        d.name.toLowerCase().includes(keyword) ||
        d.serialNumber.toLowerCase().includes(keyword),
    );
  }, [candidates.data, deviceKeyword]);

  const close = () => {
    setItems(new Map());
    setDevices(new Map());
    setItemKeyword('');
    setDeviceKeyword('');
    onClose();
  };

  const submit = async () => {
    setSaving(true);
    try {
      const res = await dataUpdateApi.add({
        itemIds: [...items.keys()],
        deviceIds: [...devices.keys()],
        windowMinutes,
      });
      message.success(
        res.data.existing > 0
          ? t('add.doneExisting', { added: res.data.added, existing: res.data.existing })
          : t('add.done', { added: res.data.added }),
      );
      onAdded();
      close();
    } finally {
      setSaving(false);
    }
  };

  const picked = items.size + devices.size;
  return (
    <Modal
      open={open}
      title={t('add.title')}
      okText={t('add.submit', { count: picked })}
      cancelText={t('common.cancel')}
      okButtonProps={
        { disabled: picked === 0, loading: saving, 'data-testid': 'dataupdate-add-submit' } as never
      }
      onOk={submit}
      onCancel={close}
      width={720}
      destroyOnHidden
      data-testid="dataupdate-add-modal"
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <div>
          <Typography.Text strong>{t('fields.window')}</Typography.Text>
          <div style={{ marginTop: 8 }}>
            <Radio.Group
              value={windowMinutes}
              onChange={(e) => setWindowMinutes(e.target.value)}
              optionType="button"
              data-testid="dataupdate-add-window"
              options={WINDOWS.map((w) => ({ value: w, label: t(`window.${w}`) }))}
            />
          </div>
          <Typography.Text type="secondary">{t('add.windowHint')}</Typography.Text>
        </div>
        {candidates.isLoading ? (
          <Spin />
        ) : (
          <Tabs
            items={[
              {
                key: 'items',
                label: t('add.itemsTab', { count: items.size }),
                children: (
                  <Space direction="vertical" style={{ width: '100%' }}>
                    <Input.Search
                      allowClear
                      placeholder={t('add.searchItems')}
                      onChange={(e) => setItemKeyword(e.target.value)}
                      data-testid="dataupdate-item-search"
                    />
                    <div style={{ maxHeight: 280, overflow: 'auto' }} data-testid="dataupdate-item-tree">
                      {itemCount === 0 ? (
                        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('add.noItems')} />
                      ) : (
                        <Tree
                          checkable
                          checkStrictly
                          defaultExpandAll
                          key={itemKeyword}
                          treeData={treeData}
                          checkedKeys={[...items.keys()]}
                          selectedKeys={[]}
                          onCheck={(_, info) => {
                            const id = Number(info.node.key);
                            toggle(setItems, id, nameOfItem.get(id) ?? '', info.checked);
                          }}
                          onSelect={(_, info) => {
                            const node = info.node as DataNode;
                            if (!node.isLeaf || node.disableCheckbox) return;
                            const id = Number(node.key);
                            toggle(setItems, id, nameOfItem.get(id) ?? '');
                          }}
                        />
                      )}
                    </div>
                  </Space>
                ),
              },
              {
                key: 'devices',
                label: t('add.devicesTab', { count: devices.size }),
                children: (
                  <Space direction="vertical" style={{ width: '100%' }}>
                    <Input.Search
                      allowClear
                      placeholder={t('add.searchDevices')}
                      onChange={(e) => setDeviceKeyword(e.target.value)}
                      data-testid="dataupdate-device-search"
                    />
                    <Table
                      rowKey="id"
                      size="small"
                      pagination={false}
                      scroll={{ y: 240 }}
                      dataSource={deviceRows}
                      locale={{ emptyText: t('add.noDevices') }}
                      rowSelection={{
                        selectedRowKeys: [...devices.keys()],
                        preserveSelectedRowKeys: true,
                        getCheckboxProps: (d) => ({ disabled: d.watched }),
                        onSelect: (d, on) => toggle(setDevices, d.id, d.name, on),
                        onSelectAll: (on, _rows, changed) => {
                          for (const d of changed) toggle(setDevices, d.id, d.name, on);
                        },
                      }}
                      onRow={(d) => ({
                        onClick: () => !d.watched && toggle(setDevices, d.id, d.name),
                      })}
                      columns={[
                        {
                          title: t('fields.name'),
                          dataIndex: 'name',
                          render: (name: string, d) => (
                            <span>
                              {name} {d.watched && <Tag>{t('add.watched')}</Tag>}
                            </span>
                          ),
                        },
                        { title: t('fields.serialNumber'), dataIndex: 'serialNumber' },
                      ]}
                    />
                  </Space>
                ),
              },
            ]}
          />
        )}
        <div data-testid="dataupdate-picked">
          <Typography.Text type="secondary">{t('add.picked', { count: picked })}</Typography.Text>
          <div style={{ marginTop: 4 }}>
            {[...items].map(([id, name]) => (
              <Tag key={`i${id}`} closable onClose={() => toggle(setItems, id, name, false)} color="blue">
                {name}
              </Tag>
            ))}
            {[...devices].map(([id, name]) => (
              <Tag key={`g${id}`} closable onClose={() => toggle(setDevices, id, name, false)} color="purple">
                {name}
              </Tag>
            ))}
          </div>
        </div>
      </Space>
    </Modal>
  );
}
