// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${keyring:…} references are written literally on purpose
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { deleteKeyring, storeKeyring } from '../../src/secrets/keyring.js';
import { readSecret } from '../../src/secrets/read.js';
import { describeKeyring, useKeyringBus } from './keyring-facts.js';

describeKeyring('a ${keyring:…} secret, read as a start reads it', (bus) => {
  useKeyringBus(bus);

  it('gives the item’s value, and names the reference as written when there is no item', async () => {
    const service = `mcp-supervisor-test-${randomUUID()}`;
    const ref = `\${keyring:${service}/deploy}`;
    expect(await storeKeyring(service, 'deploy', 'the-token')).toEqual({ ok: true });
    expect(await readSecret({ kind: 'keyring', service, account: 'deploy', ref })).toEqual({
      ok: true,
      value: 'the-token',
    });
    await deleteKeyring(service, 'deploy');
    expect(await readSecret({ kind: 'keyring', service, account: 'deploy', ref })).toEqual({
      ok: false,
      failure: {
        code: 'SECRET_UNAVAILABLE',
        reason: 'keyring_missing',
        ref,
        detail: `${ref}: the keyring has no item for service '${service}', account 'deploy'`,
      },
    });
  });
});
