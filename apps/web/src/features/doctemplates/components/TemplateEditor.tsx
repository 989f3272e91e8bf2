import {
  BoldOutlined,
  DownOutlined,
  ItalicOutlined,
  LineOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  TableOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Image } from '@tiptap/extension-image';
import { TableKit } from '@tiptap/extension-table';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Divider, Dropdown, type MenuProps, Tooltip } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ImageUpload } from '../../../shared/ImageUpload';
import { FieldChip } from './fieldChip';

interface Props {
  /** the body to start with; a new value replaces the content */
  initialHtml: string;
  onChange: (html: string) => void;
  /** called once the editor exists, so the page can insert placeholders */
  onReady?: (insert: (field: string, label: string) => void) => void;
  /** stores a checked image (JPG/PNG, at most 3 MB) and answers its URL, or null when refused */
  onUploadImage?: (file: File) => Promise<string | null>;
  readOnly?: boolean;
}

/** the table operations of the toolbar's table menu, in menu order */
const TABLE_ACTIONS = [
  'insert',
  'addRowBefore',
  'addRowAfter',
  'addColumnBefore',
  'addColumnAfter',
  'deleteRow',
  'deleteColumn',
  'toggleHeaderRow',
  'mergeOrSplit',
  'deleteTable',
] as const;
type TableAction = (typeof TABLE_ACTIONS)[number];

/**
 * The rich-text editor of a template: TipTap (ProseMirror) with StarterKit (headings, marks,
 * lists, quotes, rules, links, undo), tables (rows, columns, header row, merged cells), images
 * stored on the server, and the FieldChip placeholder node. TipTap is chosen because it is
 * maintained, works with React 19, and keeps the document a schema, so its HTML is always the
 * small tag set the server allows (column widths are not kept: the server drops styles).
 */
export function TemplateEditor({ initialHtml, onChange, onReady, onUploadImage, readOnly }: Props) {
  const { t } = useTranslation('doctemplates');
  const [uploading, setUploading] = useState(false);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({ link: { openOnClick: false } }),
      TableKit.configure({ table: { resizable: false } }),
      Image.configure({ inline: false, allowBase64: false }),
      FieldChip,
    ],
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
      table: e.isActive('table'),
      canMerge: e.can().mergeCells(),
      canSplit: e.can().splitCell(),
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

  const runTable = (action: TableAction) => {
    const c = chain();
    if (action === 'insert') c.insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run();
    else if (action === 'mergeOrSplit') c.mergeOrSplit().run();
    else c[action]().run();
  };
  const tableLabels: Record<TableAction, string> = {
    insert: t('editor.table.insert', '插入表格（3×3）'),
    addRowBefore: t('editor.table.addRowBefore', '上方插入行'),
    addRowAfter: t('editor.table.addRowAfter', '下方插入行'),
    addColumnBefore: t('editor.table.addColumnBefore', '左侧插入列'),
    addColumnAfter: t('editor.table.addColumnAfter', '右侧插入列'),
    deleteRow: t('editor.table.deleteRow', '删除行'),
    deleteColumn: t('editor.table.deleteColumn', '删除列'),
    toggleHeaderRow: t('editor.table.toggleHeaderRow', '标题行'),
    mergeOrSplit: state.canSplit
      ? t('editor.table.split', '拆分单元格')
      : t('editor.table.merge', '合并单元格'),
    deleteTable: t('editor.table.deleteTable', '删除表格'),
  };
  const tableMenu: MenuProps = {
    items: TABLE_ACTIONS.flatMap((action) => [
      ...(action === 'addRowBefore' || action === 'deleteRow' || action === 'deleteTable'
        ? [{ type: 'divider' as const }]
        : []),
      {
        key: action,
        label: tableLabels[action],
        danger: action === 'deleteTable',
        disabled:
          action === 'insert'
            ? state.table
            : !state.table || (action === 'mergeOrSplit' && !state.canMerge && !state.canSplit),
        'data-testid': `doc-table-${action}`,
      },
    ]),
    onClick: ({ key }) => runTable(key as TableAction),
  };

  const insertImage = async (file: File) => {
    if (!onUploadImage) return;
    setUploading(true);
    try {
      const url = await onUploadImage(file);
      if (url)
        chain()
          .setImage({ src: url, alt: file.name.replace(/\.[^.]+$/, '') })
          .run();
    } finally {
      setUploading(false);
    }
  };
  const imageTitle = t('editor.image', '插入图片（JPG 或 PNG，不超过 3M）');

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
        <Dropdown menu={tableMenu} trigger={['click']} disabled={readOnly}>
          <Button
            size="small"
            type={state.table ? 'primary' : 'text'}
            aria-label={t('editor.table.menu', '表格')}
            onMouseDown={(e) => e.preventDefault()}
            data-testid="doc-tool-table"
          >
            <TableOutlined />
            <DownOutlined style={{ fontSize: 10 }} />
          </Button>
        </Dropdown>
        {onUploadImage ? (
          <ImageUpload onFile={insertImage} disabled={readOnly || uploading} testId="doc-tool-image">
            <Tooltip title={imageTitle}>
              <Button
                size="small"
                type="text"
                icon={<PictureOutlined />}
                aria-label={imageTitle}
                loading={uploading}
                disabled={readOnly || uploading}
              />
            </Tooltip>
          </ImageUpload>
        ) : null}
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
