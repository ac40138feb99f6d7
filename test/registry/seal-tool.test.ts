import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExposedTool } from '../../src/registry/exposed-tool.js';
import { sealTool } from '../../src/registry/route-table.js';

const tool = (inputSchema: Record<string, unknown>, extra: Partial<ExposedTool> = {}): ExposedTool => ({
  name: 'a.t',
  server: 'a',
  tool: 't',
  scopesRequired: [],
  inputSchema,
  ...extra,
});

const deeplyFrozen = (v: unknown): boolean =>
  typeof v !== 'object' || v === null || (Object.isFrozen(v) && Object.values(v).every(deeplyFrozen));

describe('sealTool', () => {
  it('makes a deep-frozen copy equal to the tool, whatever JSON its schema holds; the input stays as it was', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), (schema) => {
        const input = tool(schema);
        const sealed = sealTool(input);
        expect(sealed).not.toBe(input);
        expect(sealed).toEqual(structuredClone(input));
        expect(deeplyFrozen(sealed)).toBe(true);
        expect(Object.isFrozen(input.inputSchema)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a __proto__ key as data and values shared within the tool shared, as structuredClone did', () => {
    const schema = JSON.parse('{"type":"object","__proto__":{"polluted":true},"properties":{}}');
    const sealed = sealTool(tool(schema, { definition: { name: 't', inputSchema: schema } }));
    expect(Object.getPrototypeOf(sealed.inputSchema)).toBe(Object.prototype);
    expect(Object.hasOwn(sealed.inputSchema, '__proto__')).toBe(true);
    expect((sealed.inputSchema as { polluted?: unknown }).polluted).toBeUndefined();
    expect(sealed.definition?.inputSchema).toBe(sealed.inputSchema);
    expect(sealed.inputSchema).not.toBe(schema);
  });

  it('copies what is not plain data as structuredClone does, and refuses a function as it did', () => {
    const when = new Date(0);
    const sealed = sealTool(tool({ type: 'object' }, { _meta: { when } }));
    expect(sealed._meta?.when).toEqual(when);
    expect(sealed._meta?.when).not.toBe(when);
    expect(() => sealTool(tool({ type: 'object' }, { _meta: { f: () => 1 } }))).toThrow();
  });
});
