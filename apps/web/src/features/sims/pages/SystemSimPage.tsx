import { Card } from 'antd';
import { SimListView } from '../components/SimListView';
import '../sims.css';

/** /systemMaintenance/systemsim: every SIM card of the platform (system_sim). */
export default function SystemSimPage() {
  return (
    <Card variant="borderless" className="sim-page">
      <SimListView side="system" />
    </Card>
  );
}
