import type { RouteCases } from '../../test/route-cases';

export const mqttRouteCases: RouteCases = {
  'GET /general/mqtt/stats': {
    ownScope: "the platform operator's counters of this server node's MQTT traffic; no company data",
  },
  'POST /general/mqtt/auth': {
    ownScope:
      'answers the broker (shared secret) whether credentials may connect; it names no company data and a key only authenticates as itself',
  },
  'POST /general/mqtt/acl': {
    ownScope:
      "answers the broker (shared secret) whether a client may use a topic; a key's ACL holds only its own topics",
  },
};
