import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Device communication: serial packets (datapackage and DataPackageConfig/:dataPkgId, code
 * cd_data_package) and their parsers (parsing and parsingconfig/:dataPkgId, code cd_parsing).
 */
export const pages: PageMap = {
  dataPackage: lazy(() => import('./pages/DataPackagePage')),
  dataPackageConfig: lazy(() => import('./pages/DataPackageConfigPage')),
  dataParsing: lazy(() => import('./pages/DataParsingPage')),
  parsingConfig: lazy(() => import('./pages/ParsingConfigPage')),
};
