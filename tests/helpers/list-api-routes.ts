import type { FastifyInstance } from 'fastify';

/**
 * Every route Fastify registered under /api (or the given prefixes), as sorted "METHOD /api/path/{param}", read from its
 * own route tree (printRoutes), so a route added anywhere is seen without being listed in a test.
 */
export function registeredApiRoutes(app: FastifyInstance, prefixes: readonly string[] = ['/api/']): string[] {
  const out = new Set<string>();
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    const full = (stack[depth - 1] ?? '') + (m[2] ?? '');
    stack[depth] = full;
    stack.length = depth + 1;
    // The docs' own routes (the page, its assets and /json) are not part of the API they describe.
    if (!prefixes.some((p) => full.startsWith(p)) || full.startsWith('/api/docs') || !m[3]) continue;
    const path = full.replace(/\/+$/, '').replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    for (const method of m[3].split(', ')) if (method !== 'HEAD') out.add(`${method} ${path}`);
  }
  return [...out].sort();
}

/** Every operation an OpenAPI document lists, in the same "METHOD /path" form, sorted. */
export function documentedApiRoutes(doc: { paths: Record<string, object> }): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
}
