import { describe, expect, it } from 'vitest';
import {
  engineConnection,
  readEngineAddress,
  resolveEngineAddress,
} from '../../src/container/engine-address.js';

const none = () => false;
const only =
  (...paths: string[]) =>
  (p: string) =>
    paths.includes(p);

describe('resolveEngineAddress', () => {
  it('takes the written address first, over DOCKER_HOST and any socket that exists', () => {
    const env = { DOCKER_HOST: 'tcp://10.0.0.9:2375' };
    expect(resolveEngineAddress('unix:///srv/engine.sock', env, () => true)).toEqual({
      ok: true,
      address: 'unix:///srv/engine.sock',
    });
  });

  it('takes DOCKER_HOST next, and names it when it is no address', () => {
    expect(resolveEngineAddress(undefined, { DOCKER_HOST: 'tcp://10.0.0.9:2375' }, () => true)).toEqual({
      ok: true,
      address: 'tcp://10.0.0.9:2375',
    });
    const bad = resolveEngineAddress(undefined, { DOCKER_HOST: 'ssh://me@box' }, none);
    expect(bad).toEqual({
      ok: false,
      message: expect.stringMatching(/^DOCKER_HOST "ssh:\/\/me@box": invalid/),
    });
  });

  it('passes over an empty DOCKER_HOST', () => {
    expect(resolveEngineAddress(undefined, { DOCKER_HOST: '' }, only('/var/run/docker.sock'))).toEqual({
      ok: true,
      address: 'unix:///var/run/docker.sock',
    });
  });

  it("then Docker's socket, then the rootless Podman socket, whichever exists first", () => {
    const env = { XDG_RUNTIME_DIR: '/run/user/1000' };
    const rootless = '/run/user/1000/podman/podman.sock';
    expect(resolveEngineAddress(undefined, env, only('/var/run/docker.sock', rootless))).toEqual({
      ok: true,
      address: 'unix:///var/run/docker.sock',
    });
    expect(resolveEngineAddress(undefined, env, only(rootless))).toEqual({
      ok: true,
      address: `unix://${rootless}`,
    });
  });

  it('falls back to the rootful Podman socket when nothing exists (or XDG_RUNTIME_DIR is not absolute)', () => {
    const seen: string[] = [];
    const exists = (p: string) => {
      seen.push(p);
      return false;
    };
    expect(resolveEngineAddress(undefined, { XDG_RUNTIME_DIR: 'relative/dir' }, exists)).toEqual({
      ok: true,
      address: 'unix:///run/podman/podman.sock',
    });
    expect(seen).toEqual(['/var/run/docker.sock']);
  });

  it('refuses a written address it cannot dial, with the forms it takes', () => {
    const r = resolveEngineAddress('npipe:////./pipe/docker_engine', {}, () => true);
    expect(r).toEqual({
      ok: false,
      message:
        'invalid engine address "npipe:////./pipe/docker_engine": expected unix:///path/to.sock, an absolute socket path, or tcp://HOST:PORT',
    });
  });
});

describe('readEngineAddress', () => {
  it('writes a bare absolute path in unix:// form', () => {
    expect(readEngineAddress('/run/podman/podman.sock')).toEqual({
      ok: true,
      address: 'unix:///run/podman/podman.sock',
    });
  });

  it('takes tcp://HOST:PORT, IPv6 included, dropping a lone trailing slash', () => {
    expect(readEngineAddress('tcp://engine.example:2375/')).toEqual({
      ok: true,
      address: 'tcp://engine.example:2375',
    });
    expect(readEngineAddress('tcp://[::1]:2375')).toEqual({ ok: true, address: 'tcp://[::1]:2375' });
  });

  it.each([
    ['tcp://engine.example', /a port from 1 to 65535/],
    ['tcp://engine.example:0', /a port from 1 to 65535/],
    ['tcp://engine.example:70000', /a port from 1 to 65535/],
    ['tcp://engine.example:2375/v1.41', /tcp:\/\/HOST:PORT/],
    ['tcp://user:pw@engine.example:2375', /tcp:\/\/HOST:PORT/],
    ['unix://run/docker.sock', /absolute path/],
    ['http://engine.example:2375', /write it as tcp:\/\/HOST:PORT/],
    ['docker.sock', /expected unix:\/\/\/path/],
    ['/run/x\0.sock', /NUL/],
  ])('refuses %j', (text, why) => {
    const r = readEngineAddress(text);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.message).toMatch(why);
  });
});

describe('engineConnection', () => {
  it('dials a unix address by its socket path, a tcp one by host and port', () => {
    expect(engineConnection('unix:///run/podman/podman.sock')).toEqual({
      socketPath: '/run/podman/podman.sock',
    });
    expect(engineConnection('tcp://10.0.0.9:2375')).toEqual({ host: '10.0.0.9', port: 2375 });
    expect(engineConnection('tcp://[::1]:2375')).toEqual({ host: '::1', port: 2375 });
  });

  it('throws on text that is no resolved address', () => {
    expect(() => engineConnection('docker.sock')).toThrow(/not an engine address/);
  });
});
