// VS Code's mcp.json (and many hand-edited JSON configs) carry `//` and `/* */` comments, which YAML would read
// as text. Blanking them keeps every other character where it was, so line:col positions stay true.

/** Whether a source name is a JSON file whose comments should be blanked before parsing. */
export function isJsonSource(source: string): boolean {
  return /\.jsonc?$/i.test(source);
}

/** Replaces JSON comments (outside strings) with spaces, keeping line breaks, so positions do not move. */
export function blankJsonComments(text: string): string {
  let out = '';
  let i = 0;
  let inString = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\' && i + 1 < text.length) {
        out += text[i + 1];
        i += 2;
        continue;
      }
      if (ch === '"') inString = false;
      i++;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
      i++;
      continue;
    }
    if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') {
        out += ' ';
        i++;
      }
      continue;
    }
    if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (; i < stop; i++) out += text[i] === '\n' || text[i] === '\r' ? text[i] : ' ';
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}
