// the shared one, for the pages that still import it from here
export { LoadFailed } from '../../../shared/LoadFailed';
