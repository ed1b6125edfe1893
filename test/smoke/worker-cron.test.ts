import { afterAll, describe, expect, it } from 'vitest';
import { freePort, type RunningServer, startProcess, tempDir, wrangler, wranglerDevArguments } from '../support/processes.ts';

let worker: RunningServer | undefined;

afterAll(async () => {
  await worker?.stop();
});

/** The JSON lines of the Worker's own log in wrangler's output (wrangler's own lines are not JSON). */
function logLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('{"time"'))
    .map((line) => JSON.parse(line));
}

describe('the Worker’s daily purge (cron trigger) on workerd', () => {
  it('runs on the scheduled event and logs one info line with the time and what it deleted', async () => {
    const persist = tempDir('svc-d1-');
    await wrangler(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist]);
    const port = await freePort();
    worker = await startProcess(process.execPath, [...wranglerDevArguments(port, persist), '--test-scheduled'], {
      port,
      timeoutMs: 60_000,
    });
    const started = Date.now();
    expect((await fetch(`${worker.url}/__scheduled?cron=${encodeURIComponent('17 3 * * *')}`)).status).toBe(200);
    await expect.poll(() => logLines(worker!.output()).filter((line) => line.event === 'purge'), { timeout: 10_000 }).toHaveLength(1);
    const [purge] = logLines(worker.output()).filter((line) => line.event === 'purge');
    expect(purge).toEqual({
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      level: 'info',
      event: 'purge',
      deleted: { documents: 0, idempotency_keys: 0, rate_limit_windows: 0, sessions: 0, sign_in_links: 0, email_changes: 0 },
    });
    expect(Date.parse(String(purge!.time))).toBeGreaterThanOrEqual(started - 60_000);
  }, 120_000);
});
