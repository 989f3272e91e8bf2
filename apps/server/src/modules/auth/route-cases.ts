import type { RouteCases } from '../../test/route-cases';

export const authRouteCases: RouteCases = {
  'POST /general/user/access/getToken': {
    ownScope: 'public login: returns a token for the credentials given',
  },
  'GET /general/user/access/logout': { ownScope: "revokes only the caller's own token" },
  'GET /general/user/access/getSmsCode': {
    ownScope: 'public: sends a code to the phone given; reads and returns no company data',
  },
  'POST /general/user/addUser': {
    ownScope: 'public registration: creates an account with no company and returns its token',
  },
  'POST /general/user/access/resetPassword': {
    ownScope: 'public: changes only the account of the phone that proves the SMS code',
  },
  'GET /general/user/access/getWXScanQrCode': {
    ownScope: 'public: creates a new scan session; reads no company data',
  },
  'GET /general/user/PollingWXScanLoginStatus': {
    ownScope: 'public: reports only the session named by its secret random scene id',
  },
  'POST /general/user/WXScanPhoneRegister': {
    ownScope: 'public: binds the scanned identity to the account of the phone that proves the SMS code',
  },
  'GET /general/user/wxScan/:state': {
    ownScope: 'public HTML page of the messaging-app stand-in; acts only on the session of its state',
  },
  'POST /general/user/wxScan/:state': {
    ownScope:
      "public: confirms only the session of its state, as the identity held by the caller's browser (its stand-in cookie)",
  },
  'GET /general/user/access/wxLoginCallback': {
    ownScope:
      "public: the messaging app's OAuth redirect; completes only the session its state names, with the identity the provider gives for the code",
  },
};
