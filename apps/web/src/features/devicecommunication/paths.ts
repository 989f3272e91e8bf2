/** Paths of the device communication pages (route table: packages/domain/src/routes/table.ts). */
export const dcPaths = {
  packets: '/devicecommunication/datapackage',
  newPacket: '/devicecommunication/DataPackageConfig/new',
  packet: (id: number) => `/devicecommunication/DataPackageConfig/${id}`,
  parsing: '/devicecommunication/parsing',
  parser: (id: number) => `/devicecommunication/parsingconfig/${id}`,
};
