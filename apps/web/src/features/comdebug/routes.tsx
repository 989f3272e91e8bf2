import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/** The serial debug assistant (/comDebug, code cd_device): a port through Web Serial or a gateway's passthrough. */
export const pages: PageMap = {
  comDebug: lazy(() => import('./pages/ComDebugPage')),
};
