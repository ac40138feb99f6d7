/**
 * Where a value stops being plain JSON data: functions, class instances (a live connection, an actor ref, a
 * Date), symbols, bigints, non-finite numbers and cycles, each named by its path. Empty means `JSON.stringify`
 * keeps everything there is.
 */
export function plainDataProblems(value: unknown, path = '$', seen = new Set<object>()): string[] {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return [];
    case 'number':
      return Number.isFinite(value) ? [] : [`${path}: ${value}`];
    case 'object': {
      if (value === null) return [];
      if (seen.has(value)) return [`${path}: a cycle`];
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) {
        return [`${path}: an instance of ${proto?.constructor?.name ?? 'something'}`];
      }
      seen.add(value);
      const problems = Object.entries(value).flatMap(([k, v]) => plainDataProblems(v, `${path}.${k}`, seen));
      seen.delete(value);
      return problems;
    }
    default:
      return [`${path}: a ${typeof value}`];
  }
}
