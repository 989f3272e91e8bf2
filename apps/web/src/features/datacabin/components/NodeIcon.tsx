import {
  AppstoreOutlined,
  BarChartOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FileImageOutlined,
  FileOutlined,
  FileTextOutlined,
  FileWordOutlined,
  FolderFilled,
  FormOutlined,
  HddOutlined,
  ProjectOutlined,
  SettingOutlined,
  TableOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import type { CabinNodeType, ItemKind } from '@platform/domain';
import type { ReactNode } from 'react';

const ICONS: Record<CabinNodeType, ReactNode> = {
  directory: <FolderFilled style={{ color: '#f5b83d' }} />,
  dataItem: <DatabaseOutlined style={{ color: '#1677ff' }} />,
  dashboard: <DashboardOutlined style={{ color: '#13a8a8' }} />,
  dashboardTemplate: <AppstoreOutlined style={{ color: '#13a8a8' }} />,
  device: <HddOutlined style={{ color: '#722ed1' }} />,
  meter: <ThunderboltOutlined style={{ color: '#fa8c16' }} />,
  report: <BarChartOutlined style={{ color: '#eb2f96' }} />,
  docTemplate: <FileWordOutlined style={{ color: '#2f54eb' }} />,
  richTemplate: <FileTextOutlined style={{ color: '#2f54eb' }} />,
  configFile: <SettingOutlined style={{ color: '#595959' }} />,
  project: <ProjectOutlined style={{ color: '#52c41a' }} />,
  document: <FileOutlined style={{ color: '#595959' }} />,
  table: <TableOutlined style={{ color: '#389e0d' }} />,
  image: <FileImageOutlined style={{ color: '#d4380d' }} />,
};

const KIND_ICONS: Record<ItemKind, ReactNode> = {
  10: <TableOutlined style={{ color: '#1677ff' }} />,
  11: <FormOutlined style={{ color: '#1677ff' }} />,
  13: <DatabaseOutlined style={{ color: '#1677ff' }} />,
};

export function NodeIcon({ type, kind }: { type: CabinNodeType; kind?: ItemKind | undefined }) {
  if (type === 'dataItem' && kind) return <>{KIND_ICONS[kind] ?? ICONS.dataItem}</>;
  return <>{ICONS[type] ?? <FileOutlined />}</>;
}

export const KIND_COLORS: Record<ItemKind, string> = { 10: 'blue', 11: 'purple', 13: 'cyan' };
