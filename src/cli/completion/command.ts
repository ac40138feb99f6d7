import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionNodes } from './model.js';
import { zshScript } from './zsh.js';

/** The shells a completion script is written for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** The completion script of `program` for `shell`, from its command and option definitions as they are now. */
export function completionScript(shell: Shell, program: Command): string {
  const nodes = completionNodes(program);
  const bin = program.name();
  if (shell === 'zsh') return zshScript(nodes, bin);
  if (shell === 'fish') return fishScript(nodes, bin);
  return bashScript(nodes, bin);
}

/** `completion <shell>`: prints the script on stdout (commander has already refused any other shell). */
export function completionCommand(
  shell: Shell,
  program: Command,
  write: (s: string) => void = (s) => void process.stdout.write(s),
): number {
  write(completionScript(shell, program));
  return 0;
}
