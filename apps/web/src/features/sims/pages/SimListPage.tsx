import { Card } from 'antd';
import { SimListView } from '../components/SimListView';
import '../sims.css';

/** /devicecommunication/simList: the company's SIM cards (cd_sim). */
export default function SimListPage() {
  return (
    <Card variant="borderless" className="sim-page">
      <SimListView side="company" />
    </Card>
  );
}
