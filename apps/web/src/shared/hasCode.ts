import { useSession } from '../app/store/session';

/** Whether the signed-in user holds a menu code (to offer an action; the server checks it again). */
export function useHasCode(): (code: string) => boolean {
  const codes = useSession().user?.menuCode;
  return (code) => codes?.includes(code) ?? false;
}
