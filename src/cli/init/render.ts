// The converted config as YAML text. Written by hand rather than through a YAML library so that every note sits
// as a comment right above what it is about; every string is a JSON string, which YAML reads as it is.
import type { Conversion, ConvertedServer, FieldValue } from './conversion.js';

/** The output file's text. `from` and `to` are the paths as the command line gave them. */
export function renderConversion(c: Conversion, from: string, to: string): string {
  const lines = [
    `# Converted by mcp-supervisor init from ${oneLine(from)} (${c.format} format).`,
    `# Check it with: mcp-supervisor check ${oneLine(to)}   (every key: docs/configuration.md)`,
    ...c.notes.map(comment('')),
  ];
  for (const [key, value] of c.sections) lines.push(`${key}: ${JSON.stringify(value)}`);
  lines.push('servers:');
  for (const s of c.servers) lines.push(...serverLines(s));
  return `${lines.join('\n')}\n`;
}

function serverLines(s: ConvertedServer): string[] {
  const body = [`${s.id}:`, ...s.fields.flatMap(([key, value]) => fieldLines(key, value))];
  if (s.off === undefined) return [...s.notes.map(comment('  ')), ...body.map((l) => `  ${l}`)];
  return [
    ...s.notes.map(comment('  ')),
    '  # not converted (see above); as it was:',
    ...body.map((l) => `  # ${l}`),
  ];
}

function fieldLines(key: string, value: FieldValue): string[] {
  if (typeof value === 'string' || typeof value === 'boolean') return [`  ${key}: ${JSON.stringify(value)}`];
  if (Array.isArray(value)) return [`  ${key}: [${value.map((v) => JSON.stringify(v)).join(', ')}]`];
  if ('map' in value)
    return [
      `  ${key}:`,
      ...Object.entries(value.map).map(([k, v]) => `    ${mapKey(k)}: ${JSON.stringify(v)}`),
    ];
  return [`  ${key}: ${JSON.stringify(value.flow)}`];
}

/** A map key plain when YAML reads it back as the same string, else quoted. */
function mapKey(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(key) ? key : JSON.stringify(key);
}

function comment(indent: string): (text: string) => string {
  return (text) => `${indent}# ${oneLine(text)}`;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}
