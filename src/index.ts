// The curated public API of mcp-supervisor: every export is named here on purpose.
export { formatProblem, type LocatedProblem } from './registry/located-yaml.js';
