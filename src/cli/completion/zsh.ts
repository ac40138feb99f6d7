// The zsh completion script: the same walk as bash's, offering candidates with their descriptions.
import { type CompletionNode, oneLine, valueFlags } from './model.js';

/** A zsh word in single quotes. */
function q(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** `name:description` for `_describe`, a colon in the name escaped. */
function item(name: string, description: string): string {
  return q(`${name.replaceAll(':', '\\:')}:${oneLine(description)}`);
}

/** The script for `source <(mcp-supervisor completion zsh)`, or a file `_mcp-supervisor` on `$fpath`. */
export function zshScript(nodes: readonly CompletionNode[], bin: string): string {
  const fn = `_${bin.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const steps = nodes
    .filter((n) => n.path.length > 0)
    .map((n) => q(`${n.path.slice(0, -1).join(' ')}:${n.path.at(-1)}`));
  const cases = nodes.map((n) => {
    const opts = n.options.flatMap((o) =>
      [o.short, o.long].filter((f): f is string => f !== undefined).map((f) => item(f, o.description)),
    );
    return [
      `    (${q(n.path.join(' '))})`,
      `      subs=(${n.subcommands.map((s) => item(s.name, s.description)).join(' ')})`,
      `      opts=(${opts.join(' ')})`,
      `      choices=(${n.choices.map(q).join(' ')})`,
      '      ;;',
    ].join('\n');
  });
  return `#compdef ${bin}
# ${bin} completion for zsh, generated from its command definitions.
# Load it with: source <(${bin} completion zsh)   (or save it as _${bin} in a directory of $fpath)
${fn}() {
  local cmdpath="" w i
  local -a subs opts choices values
  values=(${valueFlags(nodes).map(q).join(' ')})
  for ((i = 2; i < CURRENT; i++)); do
    w=\${words[i]}
    if (( \${values[(Ie)$w]} )); then
      (( i++ ))
      continue
    fi
    case "$cmdpath:$w" in
      (${steps.join('|')})
        cmdpath="\${cmdpath:+$cmdpath }$w"
        ;;
    esac
  done
  if (( \${values[(Ie)\${words[CURRENT-1]}]} )); then
    _files
    return
  fi
  case "$cmdpath" in
${cases.join('\n')}
    (*) _files; return ;;
  esac
  if [[ \${words[CURRENT]} == -* ]]; then
    _describe -t options option opts
  elif (( \${#subs} )); then
    _describe -t commands command subs
  elif (( \${#choices} )); then
    compadd -a choices
  else
    _files
  fi
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${bin}
fi
`;
}
