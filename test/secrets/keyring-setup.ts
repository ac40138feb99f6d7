// Global setup of the keyring tests: a session bus of our own and a Secret Service on it (gnome-keyring, its
// login keyring unlocked with a test password), kept in a temporary home. The user's own keyring is never
// reached: every test names this bus in DBUS_SESSION_BUS_ADDRESS. Teardown ends both processes by pid.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

const run = promisify(execFile);
const TOOLS = ['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon', 'secret-tool'];
const INSTALL = 'apt-get install gnome-keyring dbus-daemon dbus-bin libsecret-tools';

const started: ChildProcess[] = [];
let home: string | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let found: { bus?: string; why?: string };
  try {
    found = await startKeyring();
  } catch (err) {
    found = { why: `the private keyring did not start: ${(err as Error).message}` };
  }
  project.provide('keyring', found);
  return async () => {
    for (const child of started.splice(0).reverse()) await end(child);
    if (home) rmSync(home, { recursive: true, force: true });
  };
}

async function startKeyring(): Promise<{ bus?: string; why?: string }> {
  const missing = TOOLS.filter((t) => !['/usr/bin', '/bin'].some((d) => existsSync(join(d, t))));
  if (missing.length > 0) return { why: `${missing.join(', ')} not installed (${INSTALL})` };
  home = mkdtempSync(join(tmpdir(), 'mcp-supervisor-keyring-'));
  const runtime = join(home, 'run');
  mkdirSync(runtime, { mode: 0o700 });
  // No service directories: nothing is started on demand behind our back, so every process here is ours.
  const conf = join(home, 'bus.conf');
  writeFileSync(conf, busConfig(join(runtime, 'bus')));
  const bus = spawn(
    'dbus-daemon',
    [`--config-file=${conf}`, '--nofork', '--nopidfile', '--print-address=1'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  started.push(bus);
  const address = await firstLine(bus, 5000);
  const env = {
    ...process.env,
    DBUS_SESSION_BUS_ADDRESS: address,
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_RUNTIME_DIR: runtime,
  };
  const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
    env,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  started.push(keyring);
  // --unlock reads the login keyring's password on stdin; a first run creates that keyring with it.
  keyring.stdin?.end('test-password');
  const end = Date.now() + 10_000;
  while (!(await hasDefaultCollection(env))) {
    if (keyring.exitCode !== null) return { why: `gnome-keyring-daemon exited with ${keyring.exitCode}` };
    if (Date.now() > end)
      return { why: 'gnome-keyring-daemon did not serve a default collection within 10 s' };
    await new Promise((r) => setTimeout(r, 100));
  }
  return { bus: address };
}

/** Whether the Secret Service on the bus names a default collection (the login keyring, once it is made). */
async function hasDefaultCollection(env: NodeJS.ProcessEnv): Promise<boolean> {
  try {
    const { stdout } = await run(
      'dbus-send',
      [
        '--session',
        '--print-reply',
        '--dest=org.freedesktop.secrets',
        '/org/freedesktop/secrets',
        'org.freedesktop.Secret.Service.ReadAlias',
        'string:default',
      ],
      { env, timeout: 2000 },
    );
    return /object path "\/org\/freedesktop\/secrets\/collection\/\w+"/.test(stdout);
  } catch {
    return false;
  }
}

function busConfig(socket: string): string {
  return `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=${socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;
}

/** The first line a child writes on stdout (dbus-daemon's address), or a rejection after `ms`. */
function firstLine(child: ChildProcess, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no address from dbus-daemon within ${ms} ms`)), ms);
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const nl = text.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      resolve(text.slice(0, nl).trim());
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`dbus-daemon exited with ${code}`));
    });
  });
}

/** SIGTERM, then SIGKILL if it has not exited within 3 s; resolves once it has. */
async function end(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await gone;
  clearTimeout(timer);
}
