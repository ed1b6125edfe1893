import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    // Most files wait on processes they start (servers, the CLI, wrangler, Chromium), not on this one's CPU: two
    // files at a time on a 2-core machine took the suite from 447 s to 343 s (the default is one fewer than the cores).
    // `npm run test:runtimes` passes --maxWorkers=1: its files share one server and its database file.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    env: {
      WRANGLER_SEND_METRICS: 'false',
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      WRANGLER_HIDE_BANNER: 'true',
      WRANGLER_SEND_ERROR_REPORTS: 'false',
      DO_NOT_TRACK: '1',
    },
  },
});
