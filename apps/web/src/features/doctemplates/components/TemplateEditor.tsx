import {
  BoldOutlined,
  ItalicOutlined,
  LineOutlined,
  OrderedListOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Divider, Tooltip } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldChip } from './fieldChip';

interface Props {
  /** the body to start with; a new value replaces the content */
  initialHtml: string;
  onChange: (html: string) => void;
  /** called once the editor exists, so the page can insert placeholders */
  onReady?: (insert: (field: string, label: string) => void) => void;
  readOnly?: boolean;
}

/**
 * The rich-text editor of a template: TipTap (ProseMirror) with StarterKit (headings, marks,
 * lists, quotes, rules, links, undo) and the FieldChip placeholder node. TipTap is chosen
 * because it is maintained, works with React 19, and keeps the document a schema, so its HTML
 * is always the small tag set the server allows.
 */
export function TemplateEditor({ initialHtml, onChange, onReady, readOnly }: Props) {
  const { t } = useTranslation('doctemplates');
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false } }), FieldChip],
    content: initialHtml,
    editable: !readOnly,
    onUpdate: ({ editor: e }) => onChange(e.getHTML()),
    editorProps: { attributes: { class: 'dt-editor-content', 'data-testid': 'doc-editor' } },
  });

  useEffect(() => {
    if (editor && editor.getHTML() !== initialHtml)
      editor.commands.setContent(initialHtml, { emitUpdate: false });
  }, [editor, initialHtml]);

  useEffect(() => {
    onReady?.((field, label) => editor?.chain().focus().insertFieldChip({ field, label }).run());
  }, [editor, onReady]);

  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      h1: e.isActive('heading', { level: 1 }),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });

  const tool = (
    key: string,
    title: string,
    icon: ReactNode,
    active: boolean,
    run: () => void,
    disabled = false,
  ) => (
    <Tooltip title={title} key={key}>
      <Button
        size="small"
        type={active ? 'primary' : 'text'}
        icon={icon}
        aria-label={title}
        aria-pressed={active}
        disabled={readOnly || disabled}
        onMouseDown={(e) => e.preventDefault()}
        onClick={run}
        data-testid={`doc-tool-${key}`}
      />
    </Tooltip>
  );
  const chain = () => editor.chain().focus();

  return (
    <div className="dt-editor">
      <div className="dt-toolbar" role="toolbar" aria-label={t('editor.toolbar', '格式工具栏')}>
        {tool('h1', t('editor.h1', '标题 1'), <span className="dt-tool-text">H1</span>, state.h1, () =>
          chain().toggleHeading({ level: 1 }).run(),
        )}
        {tool('h2', t('editor.h2', '标题 2'), <span className="dt-tool-text">H2</span>, state.h2, () =>
          chain().toggleHeading({ level: 2 }).run(),
        )}
        {tool('h3', t('editor.h3', '标题 3'), <span className="dt-tool-text">H3</span>, state.h3, () =>
          chain().toggleHeading({ level: 3 }).run(),
        )}
        <Divider type="vertical" />
        {tool('bold', t('editor.bold', '加粗'), <BoldOutlined />, state.bold, () =>
          chain().toggleBold().run(),
        )}
        {tool('italic', t('editor.italic', '斜体'), <ItalicOutlined />, state.italic, () =>
          chain().toggleItalic().run(),
        )}
        {tool('underline', t('editor.underline', '下划线'), <UnderlineOutlined />, state.underline, () =>
          chain().toggleUnderline().run(),
        )}
        {tool('strike', t('editor.strike', '删除线'), <StrikethroughOutlined />, state.strike, () =>
          chain().toggleStrike().run(),
        )}
        <Divider type="vertical" />
        {tool('bullet', t('editor.bulletList', '无序列表'), <UnorderedListOutlined />, state.bullet, () =>
          chain().toggleBulletList().run(),
        )}
        {tool('ordered', t('editor.orderedList', '有序列表'), <OrderedListOutlined />, state.ordered, () =>
          chain().toggleOrderedList().run(),
        )}
        {tool('rule', t('editor.rule', '分隔线'), <LineOutlined />, false, () =>
          chain().setHorizontalRule().run(),
        )}
        <Divider type="vertical" />
        {tool(
          'undo',
          t('editor.undo', '撤销'),
          <UndoOutlined />,
          false,
          () => chain().undo().run(),
          !state.canUndo,
        )}
        {tool(
          'redo',
          t('editor.redo', '重做'),
          <RedoOutlined />,
          false,
          () => chain().redo().run(),
          !state.canRedo,
        )}
      </div>
      <EditorContent editor={editor} className="dt-editor-area" />
    </div>
  );
}
