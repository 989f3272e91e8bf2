/** Paths of the gateway configuration pages (route table: packages/domain/src/routes/smartdata.ts); deviceId is the gateway's id. */
const enc = encodeURIComponent;

export const configPaths = {
  editor: (deviceId: number) => `/smartdata/device/deviceconfig/${deviceId}`,
  dtuEditor: (deviceId: number) => `/smartdata/device/dtu/config/${deviceId}`,
  pushes: (device: { id: number; name: string }) => `/upgradeCfg/${device.id}/${enc(device.name)}`,
};
