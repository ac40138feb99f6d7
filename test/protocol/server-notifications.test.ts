import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/framing/json-depth.js';
import { routeNotification } from '../../src/protocol/server-notifications.js';

function nested(levels: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < levels; i++) v = { v };
  return v;
}

describe('routeNotification', () => {
  it('hands progress to the requests and a cancel to the server-request handler', () => {
    const progress = { progressToken: 3, progress: 1 };
    expect(routeNotification('notifications/progress', progress, true)).toEqual({
      kind: 'progress',
      params: progress,
    });
    expect(routeNotification('notifications/cancelled', { requestId: 'r1' }, true)).toEqual({
      kind: 'cancelled',
      requestId: 'r1',
    });
    // a cancel without params names no request: nothing the handler will find
    expect(routeNotification('notifications/cancelled', [1], true)).toEqual({
      kind: 'cancelled',
      requestId: undefined,
    });
  });

  it('passes list changes on only after the handshake', () => {
    for (const [method, type] of [
      ['notifications/tools/list_changed', 'tools_changed'],
      ['notifications/resources/list_changed', 'resources_changed'],
      ['notifications/prompts/list_changed', 'prompts_changed'],
    ] as const) {
      expect(routeNotification(method, undefined, true)).toEqual({ kind: 'event', event: { type } });
      expect(routeNotification(method, undefined, false)).toBeUndefined();
    }
    const a = routeNotification('notifications/tools/list_changed', undefined, true);
    const b = routeNotification('notifications/tools/list_changed', undefined, true);
    // each event is the listener's own to keep or change
    expect(a?.kind === 'event' && b?.kind === 'event' && a.event !== b.event).toBe(true);
  });

  it('passes an update, an acknowledgement, a task status and a log message with their params', () => {
    expect(routeNotification('notifications/resources/updated', { uri: 'file:///a' }, true)).toEqual({
      kind: 'event',
      event: { type: 'resource_updated', uri: 'file:///a' },
    });
    expect(routeNotification('notifications/resources/updated', { uri: 7 }, true)).toBeUndefined();
    expect(routeNotification('notifications/resources/updated', { uri: 'file:///a' }, false)).toBeUndefined();
    const ack = { notifications: ['tools'] };
    expect(routeNotification('notifications/subscriptions/acknowledged', ack, true)).toEqual({
      kind: 'event',
      event: { type: 'listen_acknowledged', params: ack },
    });
    expect(routeNotification('notifications/subscriptions/acknowledged', ack, false)).toBeUndefined();
    const task = { taskId: 't', status: 'working' };
    // a task's status means something whenever it comes
    expect(routeNotification('notifications/tasks/status', task, false)).toEqual({
      kind: 'event',
      event: { type: 'task_status', params: task },
    });
    const log = { level: 'info', data: 'x' };
    expect(routeNotification('notifications/message', log, true)).toEqual({
      kind: 'event',
      event: { type: 'log', params: log },
    });
    expect(routeNotification('notifications/message', 'x', true)).toBeUndefined();
  });

  it('drops params nested past the depth bound, except a log message, and unknown methods', () => {
    const deep = { requestId: 1, data: nested(MAX_JSON_DEPTH + 1) };
    expect(routeNotification('notifications/cancelled', deep, true)).toBeUndefined();
    expect(routeNotification('notifications/progress', deep, true)).toBeUndefined();
    expect(routeNotification('notifications/tasks/status', deep, true)).toBeUndefined();
    expect(
      routeNotification('notifications/message', { level: 'info', data: nested(MAX_JSON_DEPTH + 1) }, true),
    ).toMatchObject({ kind: 'event', event: { type: 'log' } });
    expect(routeNotification('notifications/progress', nested(MAX_JSON_DEPTH - 1), true)).toMatchObject({
      kind: 'progress',
    });
    expect(routeNotification('notifications/unknown', {}, true)).toBeUndefined();
    expect(routeNotification('toString', {}, true)).toBeUndefined();
  });
});
