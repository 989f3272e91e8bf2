import { describe, expect, it } from 'vitest';
import { SALES_STATUSES, type SalesAction, salesTotals, salesTransition } from './sales';

describe('sales orders', () => {
  it('pays or cancels a submitted order, and nothing else', () => {
    const actions: SalesAction[] = ['pay', 'cancel'];
    const table = Object.fromEntries(
      SALES_STATUSES.map((status) => [status, actions.map((action) => salesTransition(status, action))]),
    );
    expect(table).toEqual({
      submitted: ['paid', 'cancelled'],
      paid: [null, null],
      cancelled: [null, null],
    });
  });

  it('totals in whole cents', () => {
    // 3 gateways at ¥1 280.50 and 2 years of service at ¥9 800: 3 841.50 + 19 600
    expect(
      salesTotals([
        { quantity: 3, unitPriceCents: 128_050 },
        { quantity: 2, unitPriceCents: 980_000 },
      ]),
    ).toEqual({ amounts: [384_150, 1_960_000], totalCents: 2_344_150 });
    expect(salesTotals([])).toEqual({ amounts: [], totalCents: 0 });
  });
});
