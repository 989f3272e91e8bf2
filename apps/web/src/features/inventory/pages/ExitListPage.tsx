import { OrderList } from '../components/OrderList';
import '../inventory.css';

/** /inventoryManagement/exitList (im_exit): exit (delivery) orders to customers. */
export default function ExitListPage() {
  return <OrderList kind="exit" />;
}
