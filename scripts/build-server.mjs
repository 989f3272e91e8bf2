// `npm run build:server`: compile the server into apps/server/dist (see buildServer in lib.mjs).
// `--main-as NAME`: the server alone, as apps/server/dist/NAME.mjs (the server tests' copy).
import { buildServer } from './lib.mjs';

const at = process.argv.indexOf('--main-as');
const mainAs = at === -1 ? undefined : process.argv[at + 1];
if (at !== -1 && !/^[\w.-]+$/.test(mainAs ?? '')) throw new Error('--main-as needs a file name');
console.log(`built ${await buildServer({ mainAs })}`);
