/**
 * Words of a name or a text, as the index and its queries see them: split at `_`, `-`, `.`, `/`, spaces and
 * punctuation and at camelCase and digit boundaries (`getFileInfo` → get file info, `list_issues2` → list issues
 * 2), lower case, the commonest English endings taken off (`files`, `reading`, `created` → file, read, creat),
 * and words that say nothing of a tool (`the`, `a`, `to`, `me`) dropped.
 */
export function words(text: string): string[] {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-zA-Z])([0-9])/g, '$1 $2')
    .replace(/([0-9])([a-zA-Z])/g, '$1 $2');
  const out: string[] = [];
  for (const raw of spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (raw === '' || STOP.has(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

// Small on purpose: a word that could name what a tool does (`get`, `list`, `all`, `new`) stays.
const STOP = new Set(
  (
    'a an the to of for in on at by with from into onto and or is are be been was were it its this that these ' +
    'those i me my we our you your can could would should will please want need some any which what how do does ' +
    'there their them then than so as if use using'
  ).split(' '),
);

/**
 * The commonest English endings off, the same way for the index and the query, so both meet: plurals, `-ing`,
 * `-ed`, then a final `e` (files, file → fil; created, creating, create → creat; stopped → stop).
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(ss|sh|ch|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  const bare = w.endsWith('ing') ? w.slice(0, -3) : w.endsWith('ed') ? w.slice(0, -2) : undefined;
  if (bare !== undefined && bare.length >= 3) {
    w = bare;
    // stopped → stopp → stop; but not fill, pass, buzz.
    if (/([^aeiouslz])\1$/.test(w)) w = w.slice(0, -1);
  }
  if (w.endsWith('e') && w.length >= 4) w = w.slice(0, -1);
  return w;
}
