import { useParams } from 'react-router-dom';
import { OrderDetail } from '../components/OrderDetail';
import '../inventory.css';

/**
 * /inventoryManagement/exitDetail/:exitId/:exitStatus (im_exit): one exit order and its delivery
 * note. The state in the path is the one it was linked with; the page shows the order's own.
 */
export default function ExitDetailPage() {
  const { exitId } = useParams();
  return <OrderDetail kind="exit" id={Number(exitId)} />;
}
