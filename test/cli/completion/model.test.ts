import { describe, expect, it } from 'vitest';
import { completionScript } from '../../../src/cli/completion/command.js';
import { completionNodes } from '../../../src/cli/completion/model.js';
import { buildProgram } from '../../../src/cli/program.js';

/** The real program with one more command, defined as any command is. */
function programWithExtra() {
  const program = buildProgram('0.0.0', () => {});
  const extra = program.command('frobnicate').description("frob: it's new");
  extra.command('deeper').option('-z, --zap <level>', 'how hard').option('--gentle', 'softly');
  return program;
}

describe('completion from commander definitions', () => {
  it('reads each command path, its subcommands, its flags and whether a flag takes a value', () => {
    const nodes = completionNodes(programWithExtra());
    const root = nodes.find((n) => n.path.length === 0)!;
    expect(root.subcommands.map((s) => s.name)).toEqual(
      expect.arrayContaining(['run', 'trust', 'frobnicate']),
    );
    const deeper = nodes.find((n) => n.path.join(' ') === 'frobnicate deeper')!;
    expect(deeper.options).toEqual(
      expect.arrayContaining([
        { short: '-z', long: '--zap', takesValue: true, description: 'how hard' },
        { long: '--gentle', takesValue: false, description: 'softly' },
      ]),
    );
    expect(nodes.find((n) => n.path.join(' ') === 'completion')!.choices).toEqual(['bash', 'zsh', 'fish']);
  });

  it('a command added to the program appears in every shell without touching the scripts', () => {
    const program = programWithExtra();
    const bash = completionScript('bash', program);
    expect(bash).toContain("'frobnicate:deeper'");
    expect(bash).toContain("opts='-z --zap --gentle -h --help'");
    expect(bash).toMatch(/local values=' [^']*--zap /);
    const zsh = completionScript('zsh', program);
    expect(zsh).toContain("'frobnicate:frob: it'\\''s new'");
    expect(zsh).toContain("'--zap:how hard'");
    const fish = completionScript('fish', program);
    expect(fish).toContain(
      "complete -c mcp-supervisor -n '__mcp_supervisor_at \\'frobnicate deeper\\'' -s z -l zap -r -d 'how hard'",
    );
    expect(fish).toContain("-f -a 'frobnicate' -d 'frob: it\\'s new'");
  });
});
