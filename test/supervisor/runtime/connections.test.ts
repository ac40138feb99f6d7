import { afterEach, describe, expect, it } from 'vitest';
import { Connections } from '../../../src/supervisor/runtime/connections.js';
import { alive, fixtureConnections, gone } from '../helpers.js';

const fx = fixtureConnections();
afterEach(() => fx.reap());

describe('Connections: the one place a spawn’s connection lives', () => {
  it('finds a connection by server and generation until its process exits, then forgets it', async () => {
    const connections = new Connections();
    const conn = fx.open(['--exit-after', '50']);
    connections.add('s', 1, conn);
    expect(connections.of('s', 1)).toBe(conn);
    expect(connections.get('s')).toBe(conn);
    expect(connections.of('s', 2)).toBeUndefined();
    await conn.initialize();
    await conn.exited;
    expect(connections.get('s')).toBeUndefined();
    expect(connections.of('s', 1)).toBeUndefined();
  });

  it('an earlier generation exiting late leaves the newer one in place', async () => {
    const connections = new Connections();
    const old = fx.open();
    connections.add('s', 1, old);
    const next = fx.open();
    connections.add('s', 2, next);
    await old.close('stopped');
    expect(connections.get('s')).toBe(next);
    expect(connections.of('s', 2)).toBe(next);
    expect(connections.of('s', 1)).toBeUndefined();
  });

  it('closeAll reaps every process group and resolves once they are gone', async () => {
    const connections = new Connections();
    const a = fx.open();
    const b = fx.open();
    connections.add('a', 1, a);
    connections.add('b', 1, b);
    const pids = [a.pid!, b.pid!];
    expect(pids.every(alive)).toBe(true);
    await connections.closeAll('stopped');
    expect(await Promise.all(pids.map((p) => gone(p)))).toEqual([true, true]);
    expect([connections.get('a'), connections.get('b')]).toEqual([undefined, undefined]);
  });

  it('reapNow kills the running processes without the stdin grace', async () => {
    const connections = new Connections();
    const conn = fx.open(['--ignore-stdin-eof']);
    connections.add('s', 1, conn);
    await conn.initialize();
    connections.reapNow('reaped');
    const exit = await conn.exited;
    expect(exit).toMatchObject({ reason: 'reaped', timedOut: false });
    expect(await gone(conn.pid!)).toBe(true);
  });
});
