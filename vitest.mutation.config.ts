import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * The tests StrykerJS runs against each change to the money, idempotency, credit and limit code
 * (`npm run test:mutation`): those that run the code in this process, where per-test coverage can see it.
 * The real-server suites (smoke, CLI) run other processes that the mutant never reaches.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: ['test/api/**/*.test.ts', 'test/inprocess/**/*.test.ts', 'test/unit/**/*.test.ts', 'test/render/**/*.test.ts'],
    // The generated client types compared with a fresh generation: no money code runs there, and in Stryker's
    // instrumented copy the generation differs from the committed file.
    exclude: [...(base.test?.exclude ?? []), 'test/unit/client-types.test.ts'],
  },
});
