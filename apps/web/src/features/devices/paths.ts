/**
 * Where the device pages lead (route table: packages/domain/src/routes/table.ts and
 * routes/smartdata.ts). A device's detail is a drawer over its list, opened by `?device=<id>`,
 * so a link to it works from anywhere and survives a refresh; the spec's route table has no
 * device page of its own. Pages of other features are linked by their paths: one not built yet
 * answers "not available yet".
 */
import { useBuiltRoutes } from '../../app/router/context';

const seg = (value: string | number | null | undefined) =>
  encodeURIComponent(value === null || value === undefined || value === '' ? '-' : String(value));

export const DEVICE_LIST_PATHS = ['/devicemanagement/devicelist', '/devicecommunication/device'] as const;

/** the gateway kind the data-flow and operation-log addresses carry */
const DEVICE_TYPE = 'dtu';

interface DeviceRef {
  id: number;
  name: string;
  serialNumber: string;
  model?: string;
  firmware?: string | null;
}

export const devicePaths = {
  detail: (list: string, id: number) => `${list}?device=${id}`,
  operationLog: (d: DeviceRef) =>
    `/operationLog/${d.id}/${seg(d.model)}/${seg(d.serialNumber)}/${DEVICE_TYPE}/${seg(d.name)}`,
  /** the configuration editor (gateway configuration feature) */
  config: (d: DeviceRef) => `/smartdata/device/deviceconfig/${d.id}`,
  /** pushing a configuration to the gateway, with its history */
  configPush: (d: DeviceRef) => `/upgradeCfg/${d.id}/${seg(d.name)}`,
  chart: (d: DeviceRef) => `/dtuChart/${d.id}`,
  /** the serial debug assistant on this gateway */
  comDebug: (d: DeviceRef) => `/comDebug?device=${d.id}`,
  /** the device's configuration screen, live, and its editor (features/screens) */
  screen: (d: DeviceRef) => `/showConfigurationTool/${d.id}`,
  screenEdit: (d: DeviceRef) => `/editConfigurationTool/${d.id}`,
  /** the device family's flow chart placed on the device (features/flowcharts) */
  flowChart: (d: DeviceRef) => `/flowChart/${d.id}/${seg(d.name)}`,
  dataFlow: (d: DeviceRef) => `/dataflow/${d.id}/${DEVICE_TYPE}/${seg(d.name)}`,
  /** the firmware upgrade page: the next version is chosen there ('-') */
  firmware: (d: DeviceRef) => `/upgradeVersion/-/${seg(d.firmware)}/${seg(d.serialNumber)}`,
  maintenance: '/devicemanagement/maintenance',
  permissions: '/devicemanagement/devicemanagementpermission',
};

/** Whether the person may open a path (its route is among the permitted ones). */
export function usePermittedPath(): (path: string) => boolean {
  const { find } = useBuiltRoutes();
  return (path: string) => find(path.split('?')[0]!) !== null;
}

/** The device list this person may open (device management's, else device communication's), or null. */
export function useDeviceListPath(): string | null {
  const permitted = usePermittedPath();
  return DEVICE_LIST_PATHS.find((path) => permitted(path)) ?? null;
}
