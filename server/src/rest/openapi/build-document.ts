import { z } from 'zod';
import type { TOperation } from './operation.js';
import { OPERATIONS } from './operations.js';

type TJson = Record<string, unknown>;

/** Requests are described as the client sends them (before transforms), responses as sent. */
const schemaOf = (schema: z.ZodType, io: 'input' | 'output'): TJson => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as TJson;
  return rest;
};

function operationObject(op: TOperation): TJson {
  const parameters = [
    ...Object.entries(op.params ?? {}).map(([name, description]) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } })),
    ...Object.entries(op.query ?? {}).map(([name, q]) => ({ name, in: 'query', required: false, description: q.description, schema: schemaOf(q.schema, 'input') })),
  ];
  const requestBody = op.body
    ? 'schema' in op.body
      ? { required: true, content: { 'application/json': { schema: schemaOf(op.body.schema, 'input') } } }
      : { required: true, content: { 'multipart/form-data': { schema: schemaOf(op.body.multipart, 'input') } } }
    : undefined;
  const responses = Object.fromEntries(
    Object.entries(op.responses).map(([status, r]) => {
      const content: TJson = {};
      if (r.schema) content['application/json'] = { schema: schemaOf(r.schema, 'output') };
      for (const type of r.binary ?? []) content[type] = { schema: { type: 'string', contentMediaType: type } };
      return [status, { description: r.description, ...(Object.keys(content).length ? { content } : {}) }];
    }),
  );
  return {
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    operationId: `${op.method}${op.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
    security: op.auth ? [{ bearer: [] }, { cookie: [] }] : [],
  };
}

/** The OpenAPI 3.1 document for every REST path, generated from the shared zod schemas. */
export function buildOpenApiDocument(publicUrl: string, version: string): TJson {
  const paths: Record<string, TJson> = {};
  for (const op of OPERATIONS) paths[op.path] = { ...paths[op.path], [op.method]: operationObject(op) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Chest Doctor AI API',
      version,
      description:
        'REST API of a self-hosted Chest Doctor AI server. Programs authenticate with a personal API key ' +
        '(Settings → API keys) sent as `Authorization: Bearer cxr_…`. Results are assistive only and not a ' +
        'substitute for professional judgement.',
    },
    servers: [{ url: publicUrl }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A personal API key (cxr_…) or a session token' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'token', description: 'The web session cookie' },
      },
    },
    paths,
  };
}
