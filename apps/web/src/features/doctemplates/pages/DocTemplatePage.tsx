import { useSearchParams } from 'react-router-dom';
import { TemplateEditPage } from '../components/TemplateEditPage';
import { TemplateList } from '../components/TemplateList';
import '../doctemplates.css';

/**
 * /smartdata/Doctemplate: the company's document and rich-text templates; `?edit=<node id>`
 * opens one in the editor (the cabin opens template entries there too).
 */
export default function DocTemplatePage() {
  const [params] = useSearchParams();
  const edit = Number(params.get('edit'));
  return Number.isInteger(edit) && edit > 0 ? <TemplateEditPage key={edit} id={edit} /> : <TemplateList />;
}
