import { describe, expect, it } from 'vitest';
import { connect, serveClients } from '../../gateway/serve-helpers.js';
import { writeFixtureConfig } from '../helpers.js';

// One file for a stdio client and for `serve --http`: the token comes from a variable only the HTTP launch sets.
const { cli, clients } = serveClients();
const HEAD = [
  'serve:',
  '  auth:',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own reference to the environment
  '    tokens: [ { token: "${MCP_SUP_TEST_UNSET_TOKEN}", scopes: [] } ]',
  '',
].join('\n');

describe('serve.auth references', () => {
  it('do not stop stdio serve, where auth does not apply', async () => {
    const config = writeFixtureConfig(cli.tempDir(), [{ id: 'fx' }], HEAD);
    const client = await connect(cli, clients, config);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('fx.echo');
  }, 30_000);

  it('stop serve --http at the reference, with its line, before anything starts', async () => {
    const config = writeFixtureConfig(cli.tempDir(), [{ id: 'fx' }], HEAD);
    const r = await cli.runCli(['serve', config, '--http', '127.0.0.1:0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `${config}:3:25 serve.auth.tokens[0].token: environment variable MCP_SUP_TEST_UNSET_TOKEN is not set ` +
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the message quotes the config's syntax
        '(write ${MCP_SUP_TEST_UNSET_TOKEN:-value} to give a default)\n',
    );
  }, 30_000);

  it('are named by check without failing it', async () => {
    const config = writeFixtureConfig(cli.tempDir(), [{ id: 'fx' }], HEAD);
    const r = await cli.runCli(['check', config]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `only serve --http reads serve.auth, and it would stop at: ${config}:3:25 serve.auth.tokens[0].token: environment variable MCP_SUP_TEST_UNSET_TOKEN is not set`,
    );
  }, 30_000);
});
