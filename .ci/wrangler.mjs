// Runs wrangler with telemetry, update checks and the banner switched off, whoever calls it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_HIDE_BANNER: 'true',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  DO_NOT_TRACK: '1',
};
const bin = fileURLToPath(new URL('../node_modules/wrangler/bin/wrangler.js', import.meta.url));
const result = spawnSync(process.execPath, [bin, ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
