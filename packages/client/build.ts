/**
 * Builds the client package (packages/client) from src/client: one ESM file bundled by esbuild with the contract
 * modules it reads, and the declarations tsc emits for them, their relative imports written as `.js` (the form a
 * consumer's TypeScript resolves to the `.d.ts` beside it). `node packages/client/build.ts`.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const PACKAGE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(PACKAGE, '../..');
const DIST = join(PACKAGE, 'dist');
const TYPES = join(DIST, 'types');

rmSync(DIST, { recursive: true, force: true });
await build({
  entryPoints: [join(ROOT, 'src/client/index.ts')],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  outfile: join(DIST, 'index.js'),
  legalComments: 'none',
  logLevel: 'warning',
});
execFileSync(
  process.execPath,
  [
    join(ROOT, 'node_modules/typescript/bin/tsc'),
    ...['--declaration', '--emitDeclarationOnly', '--outDir', TYPES, '--rootDir', join(ROOT, 'src')],
    ...['--target', 'ES2023', '--module', 'ESNext', '--moduleResolution', 'Bundler', '--lib', 'ES2023,DOM'],
    ...['--allowImportingTsExtensions', '--resolveJsonModule', '--strict', '--skipLibCheck'],
    join(ROOT, 'src/client/index.ts'),
  ],
  { stdio: 'inherit' },
);
for (const file of filesUnder(TYPES)) {
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.replace(/(from\s+['"]\.{1,2}\/[^'"]+)\.ts(['"])/g, '$1.js$2'));
}
writeFileSync(join(DIST, 'index.d.ts'), "export * from './types/client/index.js';\n");

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.d.ts') ? [path] : [];
  });
}
