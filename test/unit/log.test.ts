import { afterEach, describe, expect, it, vi } from 'vitest';
import { log } from '../../src/log.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the logger', () => {
  it('writes one JSON line beginning with time (ISO 8601, UTC, ms), level and event; info on stdout, warn and error on stderr', () => {
    const stdout = vi.spyOn(console, 'log').mockImplementation(() => {});
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.useFakeTimers({ now: Date.parse('2026-11-26T06:10:23.512Z'), toFake: ['Date'] });
    try {
      log('info', 'request', { request_id: 'req_1', status: 200 });
      log('warn', 'failure', { request_id: 'req_2' });
      log('error', 'task_failed');
    } finally {
      vi.useRealTimers();
    }
    expect(stdout.mock.calls).toEqual([
      ['{"time":"2026-11-26T06:10:23.512Z","level":"info","event":"request","request_id":"req_1","status":200}'],
    ]);
    expect(stderr.mock.calls).toEqual([
      ['{"time":"2026-11-26T06:10:23.512Z","level":"warn","event":"failure","request_id":"req_2"}'],
      ['{"time":"2026-11-26T06:10:23.512Z","level":"error","event":"task_failed"}'],
    ]);
  });
});
