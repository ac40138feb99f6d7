import { describe, expect, it } from 'vitest';
import { parseHttpAddress } from '../../../src/cli/flag-parsers.js';
import { isLoopback } from '../../../src/gateway/http/address.js';
import { checkHeaders, hostGuard } from '../../../src/gateway/http/guard.js';

describe('--http HOST:PORT', () => {
  it('reads HOST:PORT, [IPv6]:PORT, :PORT and PORT (the last two on 127.0.0.1)', () => {
    expect(parseHttpAddress('0.0.0.0:8080')).toEqual({ host: '0.0.0.0', port: 8080 });
    expect(parseHttpAddress('[::1]:0')).toEqual({ host: '::1', port: 0 });
    expect(parseHttpAddress('localhost:3000')).toEqual({ host: 'localhost', port: 3000 });
    expect(parseHttpAddress(':0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseHttpAddress('9000')).toEqual({ host: '127.0.0.1', port: 9000 });
    for (const bad of ['', 'host', '1.2.3.4:70000', '[nope]:1', 'a b:1', '::1:80'])
      expect(() => parseHttpAddress(bad), bad).toThrow();
  });

  it('counts 127.0.0.0/8, ::1 and localhost as loopback, nothing else', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', 'LOCALHOST'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '::', '10.0.0.1', 'example.com', '128.0.0.1'].some(isLoopback)).toBe(false);
  });
});

describe('Host and Origin allowlist', () => {
  const guard = hostGuard('127.0.0.1', 8080, {
    allowedHosts: ['mcp.example.com', 'Proxy.example:8443'],
    allowedOrigins: ['https://app.example.com/'],
  });
  const check = (host: string | undefined, origin?: string) =>
    checkHeaders({ ...(host !== undefined ? { host } : {}), ...(origin ? { origin } : {}) }, guard);

  it('accepts the loopback names of its own port and the configured hosts', () => {
    for (const host of ['127.0.0.1:8080', 'localhost:8080', 'LOCALHOST:8080', '[::1]:8080'])
      expect(check(host), host).toEqual({ ok: true });
    expect(check('mcp.example.com')).toEqual({ ok: true });
    expect(check('mcp.example.com:443')).toEqual({ ok: true });
    expect(check('proxy.example:8443')).toEqual({ ok: true });
  });

  it('refuses other hosts, other ports, and a missing Host', () => {
    for (const host of ['127.0.0.1:8081', 'localhost', 'evil.example:8080', 'proxy.example:8444', undefined])
      expect(check(host), String(host)).toMatchObject({ ok: false, code: 'HOST_NOT_ALLOWED' });
  });

  it('accepts no Origin, its own loopback origins and the configured ones; refuses the rest', () => {
    expect(check('localhost:8080', 'http://localhost:8080')).toEqual({ ok: true });
    expect(check('localhost:8080', 'https://app.example.com')).toEqual({ ok: true });
    for (const origin of ['http://evil.example', 'null', 'https://localhost:8080', 'http://localhost:9999'])
      expect(check('localhost:8080', origin), origin).toMatchObject({
        ok: false,
        code: 'ORIGIN_NOT_ALLOWED',
      });
  });

  it('a listener on every interface accepts each address of the machine, and names only when listed', () => {
    const nic = (address: string, family: 'IPv4' | 'IPv6') =>
      ({ address, family, internal: false, netmask: '', mac: '', cidr: null }) as never;
    const interfaces = {
      lo: [nic('127.0.0.1', 'IPv4'), nic('::1', 'IPv6')],
      eth0: [nic('192.168.1.5', 'IPv4')],
    };
    const all = hostGuard('0.0.0.0', 8080, { allowedHosts: ['gw.lan'] }, interfaces);
    for (const host of ['192.168.1.5:8080', '127.0.0.1:8080', 'localhost:8080', 'gw.lan:8080'])
      expect(checkHeaders({ host }, all), host).toEqual({ ok: true });
    for (const host of ['[::1]:8080', 'rebind.example:8080', '192.168.1.5:8081'])
      expect(checkHeaders({ host }, all), host).toMatchObject({ ok: false });
    const v6 = hostGuard('::', 8080, {}, interfaces);
    expect(checkHeaders({ host: '[::1]:8080' }, v6)).toEqual({ ok: true });
  });

  it('a non-loopback listener accepts its own address, not the loopback names', () => {
    const wide = hostGuard('10.1.2.3', 80);
    expect(checkHeaders({ host: '10.1.2.3' }, wide)).toEqual({ ok: true });
    expect(checkHeaders({ host: 'localhost' }, wide)).toMatchObject({ ok: false });
  });
});
