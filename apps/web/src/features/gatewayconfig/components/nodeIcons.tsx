import {
  ClockCircleOutlined,
  CloudDownloadOutlined,
  CloudUploadOutlined,
  FieldTimeOutlined,
  FunctionOutlined,
  GlobalOutlined,
  LinkOutlined,
  SendOutlined,
  SwapOutlined,
  TagOutlined,
  ThunderboltOutlined,
  UsbOutlined,
} from '@ant-design/icons';
import type { GatewayNodeType } from '@platform/domain';
import type { ComponentType } from 'react';

export const NODE_ICONS: Record<GatewayNodeType, ComponentType> = {
  com: UsbOutlined,
  serialPacket: SendOutlined,
  serialParser: FunctionOutlined,
  network: GlobalOutlined,
  mqttPublish: CloudUploadOutlined,
  mqttSubscribe: CloudDownloadOutlined,
  httpRequest: LinkOutlined,
  delay: FieldTimeOutlined,
  command: ThunderboltOutlined,
  element: TagOutlined,
  passthrough: SwapOutlined,
  timestamp: ClockCircleOutlined,
};

/** Colour families: the serial side, what turns answers into values, what leaves the gateway, control. */
export const NODE_COLORS: Record<GatewayNodeType, string> = {
  com: '#1677ff',
  serialPacket: '#1677ff',
  passthrough: '#1677ff',
  serialParser: '#722ed1',
  element: '#722ed1',
  timestamp: '#722ed1',
  mqttPublish: '#389e0d',
  httpRequest: '#389e0d',
  network: '#389e0d',
  mqttSubscribe: '#d46b08',
  command: '#d46b08',
  delay: '#d46b08',
};
