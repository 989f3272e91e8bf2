import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { ensureLang, storedLang } from './app/i18n';

// the stored language's words first (English ones are a chunk of their own); without them the
// page still starts, in the default language's words
const render = () => createRoot(document.getElementById('root')!).render(<App />);
ensureLang(storedLang()).then(render, render);
