/** Where the configuration screen pages are (routes/smartdata.ts). */
export const screenPaths = {
  show: (deviceId: number) => `/showConfigurationTool/${deviceId}`,
  edit: (deviceId: number) => `/editConfigurationTool/${deviceId}`,
};
