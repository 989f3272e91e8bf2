import type { RouteCases } from '../../test/route-cases';

export const devtoolsRouteCases: RouteCases = {
  'GET /general/dev/smsOutbox': {
    ownScope:
      'public HTML page of the embedded default, answered only to a TCP peer on this machine; shows the stand-in SMS codes, no company data',
  },
};
