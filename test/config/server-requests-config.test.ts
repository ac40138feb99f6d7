import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/parse-config.js';

const parse = (text: string) => parseConfig(text, { source: 'c.yaml', env: {}, baseDir: '/base' });

function problemsOf(text: string): string[] {
  try {
    parse(text);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message.split('\n');
  }
  throw new Error('expected a ConfigError, but the config parsed');
}

describe('allow: and roots: client', () => {
  it('reads what a server may ask, once each, and roots taken from the client', () => {
    const [server] = parse(
      'servers:\n  a:\n    command: x\n    allow: [sampling, elicitation, sampling]\n    roots: client\n',
    ).servers;
    expect(server?.allow).toEqual(['sampling', 'elicitation']);
    expect(server?.roots).toBe('client');
  });

  it('leaves both out when not written: every server request is refused', () => {
    const [server] = parse('servers: { a: { command: x } }').servers;
    expect(server?.allow).toBeUndefined();
    expect(server?.roots).toBeUndefined();
  });

  it('names the file, line and field of a value allow does not know', () => {
    expect(problemsOf('servers:\n  a:\n    command: x\n    allow: [sampling, roots]\n')).toEqual([
      'c.yaml:4:23 servers.a.allow[1]: expected one of: sampling, elicitation',
    ]);
  });

  it('names roots that are neither client nor a list', () => {
    expect(problemsOf('servers:\n  a:\n    command: x\n    roots: host\n')).toEqual([
      `c.yaml:4:5 servers.a.roots: expected 'client' or a list of file:// URIs, received "host"`,
    ]);
  });

  it('still names the item of a roots list that is not a file:// URI', () => {
    expect(problemsOf('servers:\n  a:\n    command: x\n    roots: [file:///srv, http://x]\n')).toEqual([
      'c.yaml:4:26 servers.a.roots[1]: expected a file:// URI (file:///abs/path)',
    ]);
  });
});
