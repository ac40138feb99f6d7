/**
 * Per-tool scope semantics (Phase-3 §4): the plugin-wide `scopes_required` is a floor every call needs; a tool's
 * own `scopes_required` extends it, never replaces it. A caller scope `prefix.*` is a wildcard for every scope
 * under `prefix.`; no other form is special (a bare `*` grants only a scope literally named `*`).
 */

/** The outcome of {@link checkScopes}; `required` and `missing` keep first-seen order, without duplicates. */
export type ScopeCheckResult =
  | { ok: true; required: string[]; missing: [] }
  | { ok: false; required: string[]; missing: string[] };

export interface ScopeCheckInput {
  /** The plugin-wide (server-wide) floor: `provides.scopes_required` or a server's `scopes_required`. */
  pluginWideScopes?: readonly string[] | undefined;
  /** What the caller holds (e.g. a JWT's scopes); may contain `prefix.*` wildcards. */
  callerScopes: readonly string[];
  /** The tool being called; only its `scopesRequired` is read. */
  tool: { readonly scopesRequired: readonly string[] };
}

/**
 * Whether one caller scope grants one required scope: equal strings, or a caller scope `p.*` (with a non-empty
 * `p`) and a required scope that starts with `p.` and has something after it. So `mcp.plugin.*` grants
 * `mcp.plugin.x` and `mcp.plugin.x.y` (and `mcp.plugin.*` itself, by equality), but not `mcp.pluginx` and not
 * `mcp.plugin`.
 */
export function scopeGrants(callerScope: string, required: string): boolean {
  if (callerScope === required) return true;
  if (callerScope.length > 2 && callerScope.endsWith('.*')) {
    const prefix = callerScope.slice(0, -1); // keeps the trailing dot: `mcp.plugin.`
    return required.length > prefix.length && required.startsWith(prefix);
  }
  return false;
}

/**
 * Checks a call before anything is sent: `required` is the union of the plugin-wide scopes (first) and the
 * tool's scopes, deduplicated in first-seen order; `missing` is every required scope no caller scope grants.
 */
export function checkScopes(input: ScopeCheckInput): ScopeCheckResult {
  const required = [...new Set([...(input.pluginWideScopes ?? []), ...input.tool.scopesRequired])];
  const caller = input.callerScopes;
  const missing = required.filter((r) => !caller.some((c) => scopeGrants(c, r)));
  return missing.length === 0 ? { ok: true, required, missing: [] } : { ok: false, required, missing };
}
