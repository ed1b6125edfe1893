import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, tempDir } from '../support/processes.ts';

/** Runs the opener once; its exit code and what it printed. */
function open(url: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(join(BIN, 'bun'), [join(ROOT, 'test/support/open-database.ts'), url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('several processes started together on a new database file', () => {
  it('all start: the migrations run once, and no process fails on tables another one made', async () => {
    for (let round = 0; round < 5; round++) {
      const url = `file:${join(tempDir('svc-start-'), 'svc.db')}`;
      const results = await Promise.all(Array.from({ length: 6 }, () => open(url)));
      for (const result of results) expect(result.code, result.output).toBe(0);
    }
  }, 120_000);
});
