import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers of src/, from the top: a module may import from its own layer or any layer below, never above.
 * A folder (or a file at the root of src/) that is not listed here fails the test until it is given a layer.
 * The use cases are in a strict order of their own, one folder a layer: the operator's commands use every use
 * case; Settings' sign-in and account changes, the documents (create, web, records) each use authentication and
 * the ones below; authentication uses the credits' commit, idempotency, limits and accounts; a lower one never
 * uses a higher one.
 */
const USE_CASES: readonly string[] = ['operator', 'settings', 'documents', 'auth', 'credits', 'idempotency', 'limits', 'accounts'];

const LAYERS: readonly (readonly string[])[] = [
  ['runtimes', 'cli', 'client'],
  ['app.ts'],
  ['routes', 'http', 'openapi', 'docs', 'pages'],
  ...USE_CASES.map((folder) => [folder]),
  ['templates'],
  ['render'],
  ['contract', 'json', 'db', 'mail', 'money', 'bytes.ts', 'clock.ts', 'config.ts', 'hash.ts', 'ids.ts', 'log.ts'],
];

type Graph = ReadonlyMap<string, readonly string[]>;

const SRC = resolve(import.meta.dirname, '../../src');
/** Static imports and re-exports (with or without `from`), and dynamic `import(…)` with whatever it is given. */
const IMPORT = /(?:^|[;\s])(?:import|export)(?:\s[^'"();]*?from)?\s*['"]([^'"]+)['"]|\bimport\(([^)]*)\)/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The module a relative specifier names, as TypeScript's bundler resolution and the runtimes find it. */
function resolveModule(from: string, specifier: string): string | undefined {
  const path = resolve(dirname(from), specifier);
  return [path, path.replace(/\.js$/, '.ts'), `${path}.ts`, join(path, 'index.ts')].find(
    (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
  );
}

/**
 * Every module of src/ and the modules of src/ it imports, as paths relative to src/; and what the graph cannot
 * vouch for: a relative import that names no module, or a dynamic import of anything but a string literal.
 */
function importGraph(): { graph: Graph; unreadable: string[] } {
  const graph = new Map<string, string[]>();
  const unreadable: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const read = importsOf(file, readFileSync(file, 'utf8'));
    graph.set(relative(SRC, file), read.targets);
    unreadable.push(...read.unreadable);
  }
  return { graph, unreadable };
}

/** The modules of src/ one source text imports, and the imports it makes that cannot be followed. */
function importsOf(file: string, text: string): { targets: string[]; unreadable: string[] } {
  const module = relative(SRC, file);
  const targets: string[] = [];
  const unreadable: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const literal = match[1] ?? /^\s*['"]([^'"]+)['"]\s*$/.exec(match[2]!)?.[1];
    if (literal === undefined) {
      unreadable.push(`${module}: import(${match[2]!.trim()})`);
      continue;
    }
    if (!literal.startsWith('.')) continue;
    const target = resolveModule(file, literal);
    if (target?.startsWith(SRC) && target.endsWith('.ts')) targets.push(relative(SRC, target));
    else if (!target && resolve(dirname(file), literal).startsWith(SRC)) unreadable.push(`${module}: ${literal}`);
  }
  return { targets, unreadable };
}

function layerOf(module: string): number {
  const top = module.split('/')[0]!;
  return LAYERS.findIndex((members) => members.includes(top));
}

/** Imports that run from a module to one in a layer above it. */
function upwardImports(graph: Graph): string[] {
  return [...graph].flatMap(([from, targets]) => targets.filter((to) => layerOf(to) < layerOf(from)).map((to) => `${from} → ${to}`));
}

/** The import circles of the graph: each strongly connected set of more than one module, or a module importing itself. */
function importCircles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (module: string) => {
    index.set(module, index.size);
    low.set(module, index.get(module)!);
    stack.push(module);
    onStack.add(module);
    for (const next of graph.get(module) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(module, Math.min(low.get(module)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(module, Math.min(low.get(module)!, index.get(next)!));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== module);
    if (members.length > 1 || graph.get(module)?.includes(module)) circles.push(members.sort());
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return circles;
}

describe('layering of src/', () => {
  const { graph, unreadable } = importGraph();

  it('reads the imports of every module', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get('app.ts')).toContain('routes/index.ts');
  });

  it('resolves every relative import to a module, and every dynamic import names one literally', () => {
    expect(unreadable).toEqual([]);
  });

  it('gives every folder of src/ a layer', () => {
    expect([...graph.keys()].filter((module) => layerOf(module) === -1)).toEqual([]);
  });

  it('has no import from a layer to one above it', () => {
    const upward = upwardImports(graph);
    console.log(`layers of src/, top to bottom: ${LAYERS.map((members) => members.join(' ')).join(' → ')}`);
    console.log(`imports from a layer to one above it: ${upward.length}`);
    expect(upward).toEqual([]);
  });

  it('has no import circle', () => {
    const circles = importCircles(graph);
    console.log(`import circles between files: ${circles.length} (between use-case folders none can be: each is a layer of its own)`);
    expect(circles).toEqual([]);
  });

  it('follows every form of import: side effect, re-export, .js or no extension, dynamic; and flags what it cannot follow', () => {
    const text = [
      "import '../app.ts';",
      "import type { AppDeps } from '../http/context.js';",
      "export * from '../contract';",
      "export { ROUTES } from '../routes/index';",
      "const later = await import('../config.ts');",
      'const named = await import(`../ids.ts`);',
      "import { gone } from './no-such-module.ts';",
    ].join('\n');
    const read = importsOf(join(SRC, 'render/example.ts'), text);
    expect(read.targets).toEqual(['app.ts', 'http/context.ts', 'routes/index.ts', 'config.ts']);
    expect(read.unreadable).toEqual([
      'render/example.ts: ../contract',
      'render/example.ts: import(`../ids.ts`)',
      'render/example.ts: ./no-such-module.ts',
    ]);
  });

  it('orders the use cases strictly: it would catch a use case importing one above it', () => {
    const added = new Map(graph);
    added.set('idempotency/fingerprint.ts', [...(graph.get('idempotency/fingerprint.ts') ?? []), 'documents/request.ts']);
    expect(upwardImports(added)).toEqual(['idempotency/fingerprint.ts → documents/request.ts']);
  });

  it('would catch an upward import and a circle if one were added', () => {
    const added = new Map(graph);
    added.set('render/index.ts', [...(graph.get('render/index.ts') ?? []), 'templates/template.ts']);
    expect(upwardImports(added)).toContain('render/index.ts → templates/template.ts');
    expect(importCircles(added).some((circle) => circle.includes('render/index.ts'))).toBe(true);
  });
});
