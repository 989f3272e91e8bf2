import { expect } from 'vitest';
import { bearer } from '../../test/helper';
import type { RouteCases } from '../../test/route-cases';
import { insertOrder } from '../users/test-support';

export const ordersRouteCases: RouteCases = {
  'GET /general/order/getMyOrders': {
    attack: async ({ t, a, b }) => {
      const theirs = await insertOrder(t, a.id, { orderNo: 'A-SECRET-0001' });
      const ours = await insertOrder(t, b.id, { orderNo: 'B-OWN-0001' });
      return {
        request: {
          method: 'GET',
          url: '/general/order/getMyOrders',
          query: { pageSize: '100' },
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          const ids = res.json().data.list.map((o: { id: number }) => o.id);
          expect(ids).toEqual([ours.id]);
          expect(ids).not.toContain(theirs.id);
          expect(res.body).not.toContain('A-SECRET-0001');
        },
      };
    },
  },
};
