// The bash completion script: one function that finds which command the words so far name, then offers its
// subcommands, its flags, or the values its argument allows; anything else falls back to file names.
import { type CompletionNode, flagsOf, valueFlags } from './model.js';

/** A bash word in single quotes. */
function q(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The script for `source <(mcp-supervisor completion bash)`. */
export function bashScript(nodes: readonly CompletionNode[], bin: string): string {
  const fn = `_${bin.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const steps = nodes
    .filter((n) => n.path.length > 0)
    .map((n) => q(`${n.path.slice(0, -1).join(' ')}:${n.path.at(-1)}`));
  const cases = nodes.map((n) =>
    [
      `    ${q(n.path.join(' '))})`,
      `      subs=${q(n.subcommands.map((s) => s.name).join(' '))}`,
      `      opts=${q(flagsOf(n).join(' '))}`,
      `      choices=${q(n.choices.join(' '))}`,
      '      ;;',
    ].join('\n'),
  );
  return `# ${bin} completion for bash, generated from its command definitions.
# Load it with: source <(${bin} completion bash)   (or save it in ~/.local/share/bash-completion/completions/${bin})
${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" path="" w i subs opts choices
  local values=${q(` ${valueFlags(nodes).join(' ')} `)}
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    if [[ "$values" == *" $w "* ]]; then
      ((i++))
      continue
    fi
    case "$path:$w" in
      ${steps.join(' | ')})
        path="\${path:+$path }$w"
        ;;
    esac
  done
  COMPREPLY=()
  # The value of a flag: file names, from the default completion.
  [[ "$values" == *" $prev "* ]] && return 0
  case "$path" in
${cases.join('\n')}
    *) return 0 ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [[ -n "$subs" ]]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
  elif [[ -n "$choices" ]]; then
    COMPREPLY=($(compgen -W "$choices" -- "$cur"))
  fi
  return 0
}
complete -o default -F ${fn} ${bin}
`;
}
