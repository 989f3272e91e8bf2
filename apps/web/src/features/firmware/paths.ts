/** Paths of the firmware pages (route table: packages/domain/src/routes/smartdata.ts). */
const seg = (value: string | null | undefined) =>
  encodeURIComponent(value === null || value === undefined || value === '' ? '-' : value);

export const firmwarePaths = {
  /** a gateway's upgrade page; '-' as the next version: chosen on the page */
  upgrade: (serialNumber: string, currentVersion: string | null, nextVersion?: string | null) =>
    `/upgradeVersion/${seg(nextVersion)}/${seg(currentVersion)}/${seg(serialNumber)}`,
  /** a version's release note; the typeId is the gateway model it applies to */
  releaseNote: (version: string, model: string) => `/releaseNote/${seg(version)}/${seg(model)}`,
};

/** A route parameter as given, '' for the placeholder '-'. */
export const param = (value: string | undefined) => (value === undefined || value === '-' ? '' : value);
