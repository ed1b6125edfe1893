import { describe, expect, it } from 'vitest';
import { tempDir, wrangler } from '../support/processes.ts';

describe('the Worker bundle', () => {
  it('builds with wrangler deploy --dry-run and fits the Workers free plan (3 MB compressed)', async () => {
    const output = await wrangler(['deploy', '--dry-run', '--outdir', tempDir('svc-bundle-')]);
    const match = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
    expect(match, output).not.toBeNull();
    const [total, gzip] = [Number(match![1]), Number(match![2])];
    console.log(`Worker bundle: ${total} KiB, ${gzip} KiB compressed (free plan limit 3,072 KiB, paid 10,240 KiB)`);
    expect(gzip).toBeLessThan(3 * 1024);
    expect(output).toContain('env.DB');
  }, 60_000);
});
