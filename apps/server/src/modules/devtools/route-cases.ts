import type { RouteCases } from '../../test/route-cases';

export const devtoolsRouteCases: RouteCases = {
  'GET /general/dev/smsOutbox': {
    ownScope:
      'public HTML page of the embedded default, answered only to a TCP peer on this machine; shows the stand-in SMS codes, no company data',
  },
  'GET /general/dev/demoDevices': {
    ownScope:
      'public HTML page of the embedded default, answered only to a TCP peer on this machine; shows the simulated demo gateways, no company data',
  },
  'POST /general/dev/demoDevices': {
    ownScope:
      'presses a button of a simulated demo gateway: embedded default only, a TCP peer on this machine only, with the page token; acts on no company data',
  },
};
