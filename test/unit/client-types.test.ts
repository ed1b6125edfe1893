import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, clientTypesSource } from '../../scripts/client-types.ts';

const SRC = resolve(import.meta.dirname, '../../src');

describe('the client’s generated types', () => {
  it('src/client/api-types.ts is what `npm run client:types` generates from the OpenAPI document today', async () => {
    expect(readFileSync(CLIENT_TYPES_FILE, 'utf8'), 'run npm run client:types and commit the result').toBe(await clientTypesSource());
  });
});

/** Imports that stay in the built code: not `import type` / `export type`, which the runtimes erase. */
const RUNTIME_IMPORT = /^(?:import|export)\s+(?!type\s)[^;]*?from\s+'([^']+)'/gm;

/** Every module the client's entry loads when it runs, relative to src/, with the specifiers that name no file of src/. */
function runtimeModules(entry: string): { modules: string[]; packages: string[] } {
  const modules = new Set<string>();
  const packages: string[] = [];
  const visit = (file: string) => {
    if (modules.has(relative(SRC, file))) return;
    modules.add(relative(SRC, file));
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(RUNTIME_IMPORT)) {
      if (specifier!.startsWith('.')) visit(resolve(dirname(file), specifier!));
      else packages.push(specifier!);
    }
  };
  visit(resolve(SRC, entry));
  return { modules: [...modules].sort(), packages };
}

describe('the client runs wherever fetch does (Node, Bun, Deno, Workers, browsers)', () => {
  const { modules, packages } = runtimeModules('client/index.ts');

  it('loads only its own modules and the pure contract modules, and no package or node: module', () => {
    expect(modules).toContain('contract/headers.ts');
    expect(modules.filter((module) => !/^(client|contract)\//.test(module))).toEqual([]);
    expect(packages).toEqual([]);
    expect(modules).not.toContain('client/api-types.ts');
  });

  it('uses no Node global', () => {
    for (const module of modules)
      expect(readFileSync(resolve(SRC, module), 'utf8'), module).not.toMatch(/\b(Buffer|process|require|__dirname)\b/);
  });

  it('reads the imports it checks: a value import of a Node module or a package would be seen', () => {
    const text =
      "import { a } from './x.ts';\nimport type { B } from '../y.ts';\nimport {\n  type C,\n  d,\n} from 'node:fs';\nexport { e } from 'pkg';\n";
    expect([...text.matchAll(RUNTIME_IMPORT)].map((match) => match[1])).toEqual(['./x.ts', 'node:fs', 'pkg']);
  });
});
