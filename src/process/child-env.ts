/** Host variables every child gets, because programs break without them; nothing else of the host's passes by default. */
export const DEFAULT_ENV_ALLOWLIST = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'] as const;

/** Builds a child's whole environment: the allowlist, then `inheritEnv`, then the configured `env` (which wins). */
export function buildChildEnv(
  hostEnv: Readonly<Record<string, string | undefined>>,
  inheritEnv: readonly string[],
  env: Readonly<Record<string, string>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...DEFAULT_ENV_ALLOWLIST, ...inheritEnv]) {
    const value = hostEnv[name];
    if (value !== undefined) out[name] = value;
  }
  for (const [name, value] of Object.entries(env)) out[name] = value;
  return out;
}
