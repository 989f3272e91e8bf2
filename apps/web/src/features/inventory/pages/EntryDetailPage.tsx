import { useParams } from 'react-router-dom';
import { OrderDetail } from '../components/OrderDetail';
import '../inventory.css';

/**
 * /inventoryManagement/{own,sim,other}Detail/:entryId (im_entry): one entry order, the same page
 * for the three sources (the order itself says which it is).
 */
export default function EntryDetailPage() {
  const { entryId } = useParams();
  return <OrderDetail kind="entry" id={Number(entryId)} />;
}
