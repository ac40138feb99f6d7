// Demo server `notes`: healthy, keeps notes in memory.
import { serveMcp } from './mini-mcp.mjs';

const notes = [];
const words = (text) => text.split(/\s+/).filter(Boolean).length;

serveMcp({
  name: 'notes',
  tools: {
    add_note: {
      description: 'Add a note (optionally tagged); returns its number.',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' }, tag: { type: 'string' } },
        required: ['text'],
      },
      run: ({ text, tag }) => {
        if (typeof text !== 'string' || text.trim() === '')
          return { text: 'text must be a non-empty string', isError: true };
        notes.push({ text, tag: typeof tag === 'string' ? tag : undefined, at: new Date().toISOString() });
        return `note #${notes.length} added`;
      },
    },
    list_notes: {
      description: 'List the notes, or only those with a tag.',
      inputSchema: { type: 'object', properties: { tag: { type: 'string' } } },
      run: ({ tag }) => {
        const shown = notes
          .map((n, i) => ({ ...n, n: i + 1 }))
          .filter((n) => tag === undefined || n.tag === tag);
        if (shown.length === 0) return 'no notes';
        return shown.map((n) => `#${n.n}${n.tag ? ` [${n.tag}]` : ''} ${n.text}`).join('\n');
      },
    },
    word_count: {
      description: 'Count the words of a text, or of every note when no text is given.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      run: ({ text }) =>
        String(typeof text === 'string' ? words(text) : notes.reduce((sum, n) => sum + words(n.text), 0)),
    },
  },
});
