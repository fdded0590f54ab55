import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';

export { serializerCompiler } from 'fastify-type-provider-zod';

// Multipart bodies are streamed and checked part by part by the route (it counts the image's
// bytes as they arrive); their schema is there for the OpenAPI document only.
const documentedOnly = new WeakSet<object>();

/** Marks a multipart body schema as documentation: the route reads and checks the parts itself. */
export function multipartBody<T extends z.ZodType>(schema: T): T {
  documentedOnly.add(schema);
  return schema;
}

/**
 * fastify-type-provider-zod's validator, with two adjustments: a missing JSON body is checked
 * as `{}`, so it answers the first field's spec message ("Please enter a valid email address")
 * rather than "expected object"; and multipart schemas are not applied to the (absent) body.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => {
  if (route.httpPart === 'body' && documentedOnly.has(route.schema)) return (data) => ({ value: data });
  const validate = zodValidatorCompiler(route);
  return (data) => validate(route.httpPart === 'body' && data == null ? {} : data);
};
