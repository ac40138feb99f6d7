// The fish completion script: one `complete` line per candidate, each under a condition naming the command the
// words so far lead to (found by a function that walks them as the bash and zsh scripts do).
import { type CompletionNode, oneLine, valueFlags } from './model.js';

/** A fish word in single quotes. */
function q(word: string): string {
  return `'${word.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** The script for `mcp-supervisor completion fish | source`, or a file in ~/.config/fish/completions. */
export function fishScript(nodes: readonly CompletionNode[], bin: string): string {
  const fn = `__${bin.replace(/[^A-Za-z0-9_]/g, '_')}_at`;
  const steps = nodes
    .filter((n) => n.path.length > 0)
    .map((n) => q(`${n.path.slice(0, -1).join(' ')}:${n.path.at(-1)}`));
  const lines: string[] = [];
  for (const n of nodes) {
    const at = `-n ${q(`${fn} ${q(n.path.join(' '))}`)}`;
    for (const s of n.subcommands)
      lines.push(`complete -c ${bin} ${at} -f -a ${q(s.name)} -d ${q(oneLine(s.description))}`);
    for (const o of n.options) {
      const names = [o.short ? `-s ${o.short.slice(1)}` : '', o.long ? `-l ${o.long.slice(2)}` : '']
        .filter(Boolean)
        .join(' ');
      lines.push(
        `complete -c ${bin} ${at} ${names}${o.takesValue ? ' -r' : ''} -d ${q(oneLine(o.description))}`,
      );
    }
    if (n.choices.length > 0) lines.push(`complete -c ${bin} ${at} -f -a ${q(n.choices.join(' '))}`);
  }
  return `# ${bin} completion for fish, generated from its command definitions.
# Load it with: ${bin} completion fish | source   (or save it in ~/.config/fish/completions/${bin}.fish)
function ${fn} --description 'whether the words so far name this ${bin} command'
    set -l values ${valueFlags(nodes).map(q).join(' ')}
    set -l words (commandline -opc)
    set -e words[1]
    set -l cmdpath
    set -l skip 0
    for w in $words
        if test $skip = 1
            set skip 0
            continue
        end
        if contains -- $w $values
            set skip 1
            continue
        end
        switch "$cmdpath:$w"
            case ${steps.join(' ')}
                set cmdpath (string join ' ' -- $cmdpath $w)
        end
    end
    test "$cmdpath" = "$argv[1]"
end
${lines.join('\n')}
`;
}
