// What a completion script offers, read from commander's own definitions: every command, its subcommands and
// options as `buildProgram` defines them, so a new command or flag is completed without touching the scripts.
import type { Command } from 'commander';

/** One option as completion sees it. */
export interface CompletionOption {
  /** `-v`, when it has a short form. */
  short?: string;
  /** `--verbose`, when it has a long form. */
  long?: string;
  /** Whether a value must follow it (`--store <path>`); an optional one (`--ui [port]`) is not waited for. */
  takesValue: boolean;
  description: string;
}

/** One command (the program itself at the root), by the words that lead to it. */
export interface CompletionNode {
  /** The words after the program's name: `[]` for the program, `['trust', 'add']`. */
  path: string[];
  description: string;
  subcommands: { name: string; description: string }[];
  options: CompletionOption[];
  /** The values its first argument allows, when commander was told them (`completion <shell>`). */
  choices: string[];
}

/** Every command reachable from `program`, the program first, each before its subcommands. */
export function completionNodes(program: Command): CompletionNode[] {
  const out: CompletionNode[] = [];
  const walk = (cmd: Command, path: string[]) => {
    const help = cmd.createHelp();
    const subs = help.visibleCommands(cmd);
    out.push({
      path,
      description: help.commandDescription(cmd),
      subcommands: subs.map((s) => ({ name: s.name(), description: help.subcommandDescription(s) })),
      options: help.visibleOptions(cmd).map((o) => ({
        ...(o.short ? { short: o.short } : {}),
        ...(o.long ? { long: o.long } : {}),
        takesValue: o.required,
        description: o.description,
      })),
      choices: [...(cmd.registeredArguments[0]?.argChoices ?? [])],
    });
    // The implicit `help` command has no options of its own worth walking into.
    for (const sub of subs) if (sub.name() !== 'help') walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return out;
}

/** Every flag spelling of a node's options (`-v`, `--verbose`, …). */
export function flagsOf(node: CompletionNode): string[] {
  return node.options.flatMap((o) => [o.short, o.long].filter((f): f is string => f !== undefined));
}

/** The flags whose next word is their value, across every command (so that word is not read as a command). */
export function valueFlags(nodes: readonly CompletionNode[]): string[] {
  const flags = nodes.flatMap((n) => n.options.filter((o) => o.takesValue).flatMap((o) => [o.short, o.long]));
  return [...new Set(flags.filter((f): f is string => f !== undefined))];
}

/** The first line of a description, for shells that show one line per candidate. */
export function oneLine(text: string): string {
  return text.split('\n')[0]!.trim();
}
