import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { documentedApiRoutes, registeredApiRoutes } from '../helpers/list-api-routes.js';

describe('OpenAPI document at /api/docs/json', () => {
  let t: TestApp;
  let doc: {
    openapi: string;
    paths: Record<
      string,
      Record<
        string,
        {
          responses: Record<string, unknown>;
          requestBody?: { content: Record<string, { schema: { properties?: object } }> };
        }
      >
    >;
  };
  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    doc = res.json();
  });
  afterAll(async () => {
    await t.close();
  });

  test('is OpenAPI 3.1 with bearer (API key) and cookie security schemes', () => {
    assert.equal(doc.openapi, '3.1.0');
    const schemes = (doc as unknown as { components: { securitySchemes: Record<string, { scheme?: string }> } })
      .components.securitySchemes;
    assert.equal(schemes.bearer?.scheme, 'bearer');
  });

  test('every registered /api route appears in it, and it documents no route that does not exist', () => {
    const routes = new Set(registeredApiRoutes(t.app));
    assert.ok(routes.size > 20, `found ${routes.size} routes`);
    const documented = new Set(documentedApiRoutes(doc));
    const missing = [...routes].filter((r) => !documented.has(r));
    const stale = [...documented].filter((r) => !routes.has(r));
    assert.deepEqual(missing, [], 'routes missing from the OpenAPI document');
    assert.deepEqual(stale, [], 'documented routes that do not exist');
  });

  test('operations carry schemas generated from the shared zod schemas', () => {
    const create = doc.paths['/api/api-keys']?.post;
    assert.ok(create?.requestBody?.content['application/json']?.schema.properties, 'api key create body');
    const login = doc.paths['/api/auth/login']?.post;
    assert.deepEqual(Object.keys(login?.requestBody?.content['application/json']?.schema.properties ?? {}).sort(), [
      'email',
      'password',
    ]);
    const analyzer = doc.paths['/api/chat/analyzer']?.post;
    assert.ok(analyzer?.requestBody?.content['multipart/form-data'], 'multipart upload');
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [m, op] of Object.entries(ops))
        assert.ok(Object.keys(op.responses).length > 0, `${m} ${path} has responses`);
  });
});
