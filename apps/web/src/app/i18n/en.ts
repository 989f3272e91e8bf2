/** The English words the page starts with (see ./index.ts): loaded when English is chosen. */
import routeTitles from '../../../../../packages/domain/src/routes/locales/base/en.json';
import auth from '../../features/auth/locales/en.json';
import app from '../locales/en.json';
import { DEFAULT_NS } from './index';

export const words: Record<string, Record<string, unknown>> = { [DEFAULT_NS]: routeTitles, app, auth };
