// Values of another client's file may hold its own variables: VS Code's `${input:…}` prompts, `${workspaceFolder}`,
// `${userHome}`. Ours are environment references (`${VAR}`), so each is turned into what means the same here, or
// into a reference a person sets, and every change is said in a note.

/** A VS Code `inputs` entry, as far as a note about it needs. */
export interface InputInfo {
  description?: string;
  password?: boolean;
}

/** What the variables of a file stand for where it is converted. */
export interface VariableContext {
  /** The folder `${workspaceFolder}` names: the project a `.vscode/` or `.cursor/` file belongs to. */
  workspace: string;
  inputs: ReadonlyMap<string, InputInfo>;
}

/** A value with its variables rewritten, and what was done, for people. */
export interface Rewritten {
  value: string;
  notes: string[];
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The environment variable a VS Code input becomes: `github-token` → `GITHUB_TOKEN`. */
export function envNameFor(id: string): string {
  const name = id.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
  return /^[A-Z_]/.test(name) ? name : `_${name}`;
}

/**
 * Rewrites each `${…}` of `value`: an input becomes a reference to the variable of its name, the workspace folder
 * its path, `${userHome}` `${HOME}`; references our config reads alike (`${VAR}`, `${env:VAR}`, `${VAR:-x}`) stay;
 * anything else is kept as literal text (`$${…}`), since no variable of ours could give it a value.
 */
export function rewriteVariables(value: string, ctx: VariableContext): Rewritten {
  const notes: string[] = [];
  const out = value.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
    if (inner.startsWith('input:')) {
      const id = inner.slice('input:'.length);
      const name = envNameFor(id);
      const input = ctx.inputs.get(id);
      const what = input?.description ? ` ("${input.description}")` : '';
      notes.push(
        `${whole} became \${${name}}: VS Code's prompt${what} has no counterpart here; set ${name} in the environment`,
      );
      return `\${${name}}`;
    }
    if (inner === 'workspaceFolder' || inner === 'workspaceRoot') {
      notes.push(`${whole} became ${ctx.workspace}`);
      return ctx.workspace;
    }
    if (inner === 'userHome') return `\${HOME}`;
    if (inner === 'pathSeparator' || inner === '/') return '/';
    const name = inner.startsWith('env:') ? inner.slice(4) : inner.split(':-')[0]!;
    if (ENV_NAME.test(name)) return whole;
    notes.push(`${whole} is no variable mcp-supervisor knows; it was written as literal text`);
    return `$${whole}`;
  });
  return { value: out, notes };
}

/** Whether a value is nothing but environment references with plain words around them (`Bearer ${TOKEN}`). */
export function isReferenceOnly(value: string): boolean {
  const rest = value.replace(/\$\{(?:env:)?[A-Za-z_][A-Za-z0-9_]*\}/g, '');
  return rest !== value && /^[A-Za-z ]*$/.test(rest);
}
