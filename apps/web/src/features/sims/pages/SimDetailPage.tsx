import { useParams } from 'react-router-dom';
import { SimDetailView } from '../components/SimDetailView';
import '../sims.css';

/** /devicecommunication/simDetail/:simId: one of the company's cards. */
export default function SimDetailPage() {
  const { simId } = useParams();
  return <SimDetailView side="company" id={Number(simId)} />;
}
