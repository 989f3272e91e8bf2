/**
 * The placeholder node of the editor: `<span data-field="KEY">label</span>` (the format the
 * server stores and packages/domain renderDocTemplate fills). An inline atom: it moves and
 * deletes as one piece and its label cannot be typed into.
 */
import { mergeAttributes, Node } from '@tiptap/react';

export interface FieldChipAttrs {
  field: string;
  label: string;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    fieldChip: {
      insertFieldChip: (attrs: FieldChipAttrs) => ReturnType;
    };
  }
}

export const FieldChip = Node.create({
  name: 'fieldChip',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,

  addAttributes() {
    return {
      field: {
        default: '',
        parseHTML: (el: HTMLElement) => el.getAttribute('data-field') ?? '',
        renderHTML: (attrs: Record<string, unknown>) => ({ 'data-field': attrs.field }),
      },
      label: {
        default: '',
        parseHTML: (el: HTMLElement) => el.textContent ?? '',
        renderHTML: () => ({}),
      },
    };
  },

  parseHTML() {
    return [{ tag: 'span[data-field]' }];
  },

  renderHTML({ node, HTMLAttributes }) {
    return ['span', mergeAttributes(HTMLAttributes), String(node.attrs.label ?? '')];
  },

  renderText({ node }) {
    return `[${String(node.attrs.label ?? '')}]`;
  },

  addCommands() {
    return {
      insertFieldChip:
        (attrs) =>
        ({ commands }) =>
          commands.insertContent([
            { type: this.name, attrs },
            { type: 'text', text: ' ' },
          ]),
    };
  },
});

/**
 * Refreshes the labels of stored placeholders with the fields' current names (a field renamed
 * after the template was saved shows its new name); unknown keys keep their label.
 */
export function relabel(html: string, labels: Map<string, string>): string {
  if (!html || labels.size === 0) return html;
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  for (const el of Array.from(doc.body.querySelectorAll('span[data-field]'))) {
    const label = labels.get(el.getAttribute('data-field') ?? '');
    if (label !== undefined) el.textContent = label;
  }
  return doc.body.innerHTML;
}
