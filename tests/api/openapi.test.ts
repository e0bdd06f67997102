import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/lib/api/app.ts';

interface Operation {
  summary?: string;
  tags?: string[];
  security?: unknown[];
}
type OpenApiDocument = { openapi: string; paths: Record<string, Record<string, Operation>> };

const DOCUMENT_PATHS = new Set(['/api/openapi.json', '/api/docs']);

async function fetchApi(path: string, appEnv = env.APP_ENV) {
  return api.fetch(new Request(`http://localhost${path}`), { ...env, APP_ENV: appEnv });
}

/** Every method and path the app routes under /api (the /api/api alias serves the same), in OpenAPI's spelling. */
function registeredOperations(): Set<string> {
  const operations = new Set<string>();
  for (const route of api.routes) {
    if (route.method === 'ALL' || !route.path.startsWith('/api') || route.path.startsWith('/api/api') || DOCUMENT_PATHS.has(route.path))
      continue;
    const path = (route.path.slice('/api'.length) || '/').replace(/:(\w+)(?:\{[^}]*\})?/g, '{$1}');
    operations.add(`${route.method} ${path}`);
  }
  return operations;
}

describe('the OpenAPI document', () => {
  it('documents exactly the routes the app serves, each with a summary, a tag and its sign-in', async () => {
    const response = await fetchApi('/api/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as OpenApiDocument;
    expect(document.openapi).toMatch(/^3\./);
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        documented.add(`${method.toUpperCase()} ${path}`);
        expect(operation.summary, `${method} ${path}`).toBeTruthy();
        expect(operation.tags, `${method} ${path}`).toHaveLength(1);
        expect(operation.security, `${method} ${path}`).toBeDefined();
      }
    }
    const registered = registeredOperations();
    expect(registered.size).toBeGreaterThan(50);
    expect([...registered].filter((operation) => !documented.has(operation))).toEqual([]);
    expect([...documented].filter((operation) => !registered.has(operation))).toEqual([]);
  });

  it('describes a body from its zod schema', async () => {
    const document = (await (await fetchApi('/api/openapi.json')).json()) as OpenApiDocument;
    const create = document.paths['/v1/addresses']?.post as Operation & {
      requestBody?: { content: Record<string, { schema: { properties: object } }> };
    };
    expect(Object.keys(create.requestBody?.content['application/json']?.schema.properties ?? {})).toContain('street');
  });

  it('is served with a plain reading page in local builds only', async () => {
    const page = await fetchApi('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('POST /api/v1/addresses');
    expect(html).not.toMatch(/<script/i);
    for (const path of ['/api/openapi.json', '/api/docs', '/api/api/openapi.json']) {
      expect((await fetchApi(path, 'production')).status, path).toBe(404);
    }
  });
});
