/** One item of the OS keyring, as `SERVICE/ACCOUNT` names it (on the Secret Service: `service`, `username`). */
export interface KeyringItem {
  service: string;
  account: string;
}

/**
 * `SERVICE/ACCOUNT` split at its first slash, so an account may hold slashes of its own (`git/team/bot`) while a
 * service never does; undefined when there is no slash or either part is empty.
 */
export function parseKeyringItem(text: string): KeyringItem | undefined {
  const slash = text.indexOf('/');
  if (slash <= 0 || slash === text.length - 1) return undefined;
  return { service: text.slice(0, slash), account: text.slice(slash + 1) };
}

/** The reference a config writes for an item: `${keyring:SERVICE/ACCOUNT}`. */
export function keyringRef(item: KeyringItem): string {
  return `\${keyring:${item.service}/${item.account}}`;
}
