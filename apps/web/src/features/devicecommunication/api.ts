/** Calls of serial packets and parsers (docs/serial-data.md). */
import type {
  DataPermission,
  Encoding,
  FieldType,
  ParserValue,
  SamplingId,
  SerialValueType,
} from '@platform/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, request } from '../../app/http/client';
import type { Page, Paging } from '../../shared/paging';

export interface PacketInput {
  name: string;
  frame: string;
  appendCrc: boolean;
  valueType: SerialValueType;
  encoding: Encoding;
  samplingId: SamplingId;
}

export interface Packet extends PacketInput {
  id: number;
  /** the CRC bytes appended when sent, null when none */
  crc: string | null;
  /** values of its parser; null without one */
  parserValues: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface ItemOption {
  id: number;
  name: string;
  fields: Array<{ key: string; name: string; type: FieldType; unit?: string; decimals?: number }>;
  level: DataPermission;
}

export interface ParserDetail {
  package: Packet;
  answerLength: number | null;
  values: ParserValue[];
  updatedAt: string | null;
  updatedBy: string | null;
  items: ItemOption[];
}

export const dcKeys = {
  packets: (scope: 'packets' | 'parsing', paging: Paging, keyword: string) =>
    ['devicecommunication', scope, paging, keyword] as const,
  all: ['devicecommunication'] as const,
  packet: (id: number) => ['devicecommunication', 'packet', id] as const,
  parser: (id: number) => ['devicecommunication', 'parser', id] as const,
  items: ['devicecommunication', 'items'] as const,
};

const validId = (id: number) => Number.isInteger(id) && id > 0;

/** The packet list of the data package page, or of the parsing page (each needs its own code). */
export function usePackets(scope: 'packets' | 'parsing', paging: Paging, keyword: string) {
  const url =
    scope === 'packets' ? '/devicecommunication/dataPackage/list' : '/devicecommunication/parsing/list';
  return useQuery({
    queryKey: dcKeys.packets(scope, paging, keyword),
    queryFn: () => get<Page<Packet>>(url, { ...paging, keyword: keyword || undefined }),
    placeholderData: keepPreviousData,
  });
}

export function usePacket(id: number) {
  return useQuery({
    queryKey: dcKeys.packet(id),
    queryFn: () => get<Packet>('/devicecommunication/dataPackage/get', { id }),
    enabled: validId(id),
    retry: false,
  });
}

export function useParser(id: number) {
  return useQuery({
    queryKey: dcKeys.parser(id),
    queryFn: () => get<ParserDetail>('/devicecommunication/parsing/get', { dataPkgId: id }),
    enabled: validId(id),
    retry: false,
    // the editor keeps its own draft: a refetch must not replace what is being typed
    refetchOnWindowFocus: false,
  });
}

/** The kind-13 items the person may write: the targets a value may be bound to. */
export function useWritableItems() {
  return useQuery({
    queryKey: dcKeys.items,
    queryFn: () => get<ItemOption[]>('/devicecommunication/parsing/items'),
    staleTime: 30_000,
  });
}

export const dcApi = {
  add: (packet: PacketInput) =>
    request<Packet>({ method: 'POST', url: '/devicecommunication/dataPackage/add', data: packet }),
  update: (id: number, packet: PacketInput) =>
    request<Packet>({
      method: 'POST',
      url: '/devicecommunication/dataPackage/update',
      data: { id, ...packet },
    }),
  remove: (id: number) =>
    request<null>({ method: 'POST', url: '/devicecommunication/dataPackage/delete', data: { id } }),
  saveParser: (dataPkgId: number, answerLength: number | null, values: ParserValue[]) =>
    request<null>({
      method: 'POST',
      url: '/devicecommunication/parsing/save',
      data: { dataPkgId, answerLength, values },
    }),
};
