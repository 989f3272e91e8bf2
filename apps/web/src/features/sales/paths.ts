/**
 * The detail route of an order: /smartSale/orderDetail with the nine parameters of the route
 * table, which mirror the child-record pages of the data engine. An order is not a record of a
 * data item, so only `recordId` (the order's id) and `itemName` (its number, the page's title
 * while it loads) carry meaning; the others hold 0 or '-'.
 */
export function orderDetailPath(order: { id: number; number: string }): string {
  const parts = [
    '0',
    '0',
    encodeURIComponent(order.number),
    '0',
    '0',
    String(order.id),
    'ordermanagement',
    '-',
    '-',
  ];
  return `/smartSale/orderDetail/${parts.join('/')}`;
}

/** The contract list, opening the form that makes the order's contract. */
export const newContractPath = (orderId: number) => `/smartSale/salecontract?order=${orderId}`;

/** The contract list, opening one contract. */
export const contractPath = (contractId: number) => `/smartSale/salecontract?contract=${contractId}`;
