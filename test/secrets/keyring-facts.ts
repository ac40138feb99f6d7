import { afterAll, beforeAll, describe, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    keyring: { bus?: string; why?: string };
  }
}

/**
 * The address of the session bus a private Secret Service answers on, or why there is none. Without one the
 * keyring tests are skipped with the reason printed — except under CI, where a missing keyring is a failure.
 */
export function testKeyring(): string | undefined {
  const found = inject('keyring');
  if (found.bus) return found.bus;
  if (process.env.CI === 'true') throw new Error(`keyring tests cannot run under CI: ${found.why}`);
  console.warn(`keyring tests skipped: ${found.why}`);
  return undefined;
}

/** `describe` that runs only where the private keyring answers (and fails under CI where it does not). */
export function describeKeyring(name: string, body: (bus: string) => void): void {
  const bus = testKeyring();
  if (bus === undefined) describe.skip(name, () => {});
  else describe(name, () => body(bus));
}

/**
 * Points this process's keyring calls at the private bus for the tests of the enclosing `describe` (the library
 * reads the address at its first call), and puts the variable back after them.
 */
export function useKeyringBus(bus: string): void {
  const before = process.env['DBUS_SESSION_BUS_ADDRESS'];
  beforeAll(() => {
    process.env['DBUS_SESSION_BUS_ADDRESS'] = bus;
  });
  afterAll(() => {
    if (before === undefined) delete process.env['DBUS_SESSION_BUS_ADDRESS'];
    else process.env['DBUS_SESSION_BUS_ADDRESS'] = before;
  });
}
