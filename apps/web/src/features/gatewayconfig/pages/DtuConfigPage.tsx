import { EditorPage } from './ConfigEditorPage';

/** /smartdata/device/dtu/config/:deviceId: the same editor, the DTU template first. */
export default function DtuConfigPage() {
  return <EditorPage dtu />;
}
