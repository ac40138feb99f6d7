// A converted file is new, and is shared, committed or pasted more readily than a client's own settings: a secret
// found in an env value or a header is replaced by a reference to an environment variable, never copied.
import { isSecretName, looksSecretValue } from '../../trust/mask.js';
import { isReferenceOnly } from './variables.js';

/** A value as it is written, and the variable a person must now set, when it was a secret. */
export interface Kept {
  value: string;
  moved?: string;
}

/** An env value: a secret-looking one becomes `${NAME}`, read from the host's variable of the same name. */
export function keepEnvValue(name: string, value: string): Kept {
  if (isReferenceOnly(value) || !(isSecretName(name) || looksSecretValue(value))) return { value };
  return { value: `\${${name}}`, moved: name };
}

/**
 * A header value: a secret-looking one becomes a reference to `<ID>_<HEADER>` (`GITHUB_AUTHORIZATION`), its
 * scheme kept (`Bearer ${GITHUB_AUTHORIZATION}`).
 */
export function keepHeaderValue(serverId: string, header: string, value: string): Kept {
  if (isReferenceOnly(value) || !(isSecretName(header) || looksSecretValue(value))) return { value };
  const name = `${serverId}_${header}`.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
  const scheme = /^(Bearer|Basic|Token|Bot)\s+\S/i.exec(value)?.[1];
  return { value: scheme ? `${scheme} \${${name}}` : `\${${name}}`, moved: name };
}
