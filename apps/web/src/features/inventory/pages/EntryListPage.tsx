import { OrderList } from '../components/OrderList';
import '../inventory.css';

/** /inventoryManagement/entryList (im_entry): warehouse entry orders of own products, SIM cards and other goods. */
export default function EntryListPage() {
  return <OrderList kind="entry" />;
}
