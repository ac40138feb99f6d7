import { register } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { supervisorMetrics } from '../../src/metrics/supervisor-metrics.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { parseScrape } from './scrape.js';

const fleet = fleets();
afterEach(() => fleet.reap());

describe('supervisorMetrics', () => {
  it('counts calls by outcome, latency, bytes, exits, restarts, health failures, and reads load at each scrape', async () => {
    const { sup, events } = fleet.create(
      fleetConfig([
        fixtureServer('fx'),
        // Never answers a ping: its health checks fail, below a threshold that would wedge it.
        fixtureServer('mute', ['--no-pong'], {
          health: { intervalMs: 40, timeoutMs: 40, failureThreshold: 1000 },
        }),
      ]),
    );
    const metrics = supervisorMetrics(sup);
    await sup.start();

    expect(await sup.callToolOutcome('fx.echo', { text: 'héllo' })).toEqual({ ok: true, text: 'héllo' });
    await sup.callToolOutcome('fx.echo', { text: 'abc' });
    await sup.callToolOutcome('fx.fail', { message: 'no' });
    await sup.callToolOutcome('nope.echo', {});
    const slow = sup.callToolOutcome('fx.slow', { ms: 5000 });
    await eventually(() => sup.load()[0]!.callsInFlight === 1, 2000, 'a call in flight');
    const during = parseScrape(await metrics.text());
    expect(during.value('mcp_supervisor_calls_in_flight', { server: 'fx' })).toBe(1);
    expect(during.value('mcp_supervisor_server_written_bytes_total', { server: 'fx' })).toBeGreaterThan(0);
    expect(during.value('mcp_supervisor_server_read_bytes_total', { server: 'fx' })).toBeGreaterThan(0);

    // A crash ends both calls in flight; the server is restarted.
    await sup.callToolOutcome('fx.crash', { code: 7 });
    expect((await slow).ok).toBe(false);
    await eventually(
      () => events.some((e) => e.type === 'state' && e.server === 'fx' && e.from === 'backoff'),
      5000,
      'a restart',
    );
    await eventually(() => sup.status()[0]!.state === 'ready', 5000, 'fx ready again');
    await eventually(
      () => events.some((e) => e.type === 'notice' && e.code === 'HEALTH_FAILED'),
      5000,
      'a failed health check',
    );

    const s = parseScrape(await metrics.text());
    expect(s.value('mcp_supervisor_server_state', { server: 'fx', state: 'ready' })).toBe(1);
    expect(s.value('mcp_supervisor_server_state', { server: 'fx', state: 'backoff' })).toBe(0);
    expect(s.value('mcp_supervisor_server_restarts_total', { server: 'fx' })).toBe(1);
    expect(s.value('mcp_supervisor_server_restarts_total', { server: 'mute' })).toBe(0);
    expect(s.value('mcp_supervisor_server_exits_total', { server: 'fx', reason: 'exited' })).toBe(1);
    expect(s.value('mcp_supervisor_calls_total', { server: 'fx', code: 'OK' })).toBe(2);
    expect(s.value('mcp_supervisor_calls_total', { server: 'fx', code: 'TOOL_ERROR' })).toBe(1);
    expect(s.value('mcp_supervisor_calls_total', { server: 'fx', code: 'SERVER_EXITED' })).toBe(2);
    expect(s.value('mcp_supervisor_calls_total', { server: '', code: 'UNKNOWN_TOOL' })).toBe(1);
    expect(s.value('mcp_supervisor_call_result_bytes_total', { server: 'fx' })).toBe(6 + 3);
    expect(s.value('mcp_supervisor_calls_in_flight', { server: 'fx' })).toBe(0);
    expect(s.value('mcp_supervisor_outgoing_queue_bytes', { server: 'fx' })).toBe(0);
    expect(s.value('mcp_supervisor_server_tools', { server: 'fx' })).toBe(
      sup.listTools().filter((t) => t.server === 'fx').length,
    );
    const failures = events.filter((e) => e.type === 'notice' && e.code === 'HEALTH_FAILED').length;
    expect(s.value('mcp_supervisor_health_check_failures_total', { server: 'mute' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(s.value('mcp_supervisor_health_check_failures_total', { server: 'mute' })).toBeLessThanOrEqual(
      failures,
    );
    expect(s.value('mcp_supervisor_health_check_failures_total', { server: 'fx' })).toBe(0);
    expect(
      s.value('mcp_supervisor_notices_total', { server: 'mute', code: 'HEALTH_FAILED' }),
    ).toBeGreaterThanOrEqual(1);
    // Five calls of fx in its latency histogram (the parser keeps a histogram's buckets).
    const histogram = s.families.find((f) => f.name === 'mcp_supervisor_call_duration_seconds');
    expect(histogram?.type).toBe('HISTOGRAM');
    expect(await metrics.text()).toMatch(/^mcp_supervisor_call_duration_seconds_count\{server="fx"\} 5$/m);

    // Its own registry: prom-client's global one never sees the fleet.
    expect(await register.metrics()).not.toMatch(/mcp_supervisor_/);

    // Closed, it hears nothing more.
    metrics.close();
    metrics.close();
    await sup.callToolOutcome('fx.echo', { text: 'after' });
    expect(
      parseScrape(await metrics.text()).value('mcp_supervisor_calls_total', { server: 'fx', code: 'OK' }),
    ).toBe(2);
  });
});
