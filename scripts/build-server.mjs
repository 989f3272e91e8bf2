// `npm run build:server`: compile the server into apps/server/dist (see buildServer in lib.mjs).
import { buildServer } from './lib.mjs';

console.log(`built ${await buildServer()}`);
