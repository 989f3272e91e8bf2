/**
 * A device's flow chart and a PV inverter's dashboard (apps/server/src/modules/flowcharts,
 * docs/configuration-screens.md): the chart placed on the device, its values, the template
 * chosen with its role and command maps, its switches, and the inverter's roles.
 */
import type { CommandMap, FamilyLang, FamilyRole, RoleMap, ScreenBody, SwitchState } from '@platform/domain';
import { useQuery } from '@tanstack/react-query';
import { get, request } from '../../app/http/client';
import type { ScreenPoint, ScreenValues } from '../screens/api';

const BASE = '/devicemanagement/flowchart';

export interface FamilyTemplateOption {
  id: number;
  code: string;
  name: Record<FamilyLang, string>;
  roles: FamilyRole[];
  /** the commands its switches send, each mapped onto one of the device's */
  commands: string[];
  builtin: boolean;
}

export interface FlowChartView {
  device: { id: number; name: string; serialNumber: string; online: boolean };
  chart: {
    templateId: number;
    name: string;
    map: RoleMap;
    commands: CommandMap;
    /** placed on the device: a switch's unmapped command is '' */
    body: ScreenBody;
    unmapped: string[];
  } | null;
  points: ScreenPoint[];
  /** the commands of the device's running configuration */
  commands: string[];
  templates: FamilyTemplateOption[];
  canEdit: boolean;
}

export interface RoleReading {
  key: string;
  name: Record<FamilyLang, string>;
  unit: string;
  value: number | null;
  ts: string | null;
  point: { itemId: number; field: string; fieldName: string; itemName: string } | null;
}

export interface InverterView {
  device: FlowChartView['device'];
  at: string;
  staleSeconds: number;
  mapped: boolean;
  roles: RoleReading[];
  efficiency: number | null;
  today: Array<{ ts: string; value: number }>;
  /** the start of today in the company's time zone */
  since: string;
  seriesMinutes: number;
}

export const VALUES_POLL_MS = 2500;
export const INVERTER_POLL_MS = 5000;

export const flowChartKeys = {
  all: ['flowcharts'] as const,
  one: (id: number, lang: FamilyLang) => ['flowcharts', 'chart', id, lang] as const,
  values: (id: number) => ['flowcharts', 'values', id] as const,
  inverter: (id: number) => ['flowcharts', 'inverter', id] as const,
};

export function useFlowChart(id: number, lang: FamilyLang) {
  return useQuery({
    queryKey: flowChartKeys.one(id, lang),
    queryFn: () => get<FlowChartView>(BASE, { id, lang }, { silent: true }),
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
  });
}

export function useFlowChartValues(id: number, enabled: boolean) {
  return useQuery({
    queryKey: flowChartKeys.values(id),
    enabled,
    queryFn: () => get<ScreenValues>(`${BASE}/values`, { id }, { silent: true }),
    refetchInterval: VALUES_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

export function useInverter(id: number) {
  return useQuery({
    queryKey: flowChartKeys.inverter(id),
    queryFn: () => get<InverterView>('/devicemanagement/inverter', { id }, { silent: true }),
    enabled: Number.isInteger(id) && id > 0,
    refetchInterval: INVERTER_POLL_MS,
    refetchIntervalInBackground: false,
    retry: false,
  });
}

export const flowChartApi = {
  set: (id: number, templateId: number, map: RoleMap, commands: CommandMap) =>
    request<null>({ method: 'POST', url: `${BASE}/set`, data: { id, templateId, map, commands } }),
  switch: (id: number, elementId: string, state: SwitchState) =>
    request<{ operationId: number; command: string }>({
      method: 'POST',
      url: `${BASE}/switch`,
      data: { id, elementId, state },
    }),
  clear: (id: number) => request<null>({ method: 'POST', url: `${BASE}/clear`, data: { id } }),
};
