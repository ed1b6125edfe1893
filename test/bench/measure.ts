export const REFERENCES = [
  { name: '3 lines', file: 'reference-invoice.json' },
  { name: '50 lines', file: 'reference-invoice-50.json' },
] as const;

export const WARMUP = 100;
export const RUNS = 300;

export interface Summary {
  median: number;
  p95: number;
  perSecond: number;
  bytes: number;
}

export function summarise(samples: number[], bytes: number): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return {
    median: sorted[Math.floor(sorted.length / 2)]!,
    p95: sorted[Math.floor(sorted.length * 0.95)]!,
    perSecond: 1000 / mean,
    bytes,
  };
}

/** Times `run` RUNS times after WARMUP calls, each call on its own. */
export async function timeRuns(run: () => Promise<number>): Promise<Summary> {
  let bytes = 0;
  for (let i = 0; i < WARMUP; i++) bytes = await run();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return summarise(samples, bytes);
}
