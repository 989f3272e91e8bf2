import { useParams } from 'react-router-dom';
import { SimDetailView } from '../components/SimDetailView';
import '../sims.css';

/** /systemMaintenance/syssimdetail/:simId: any card of the platform. */
export default function SysSimDetailPage() {
  const { simId } = useParams();
  return <SimDetailView side="system" id={Number(simId)} />;
}
