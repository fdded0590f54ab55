import { z } from 'zod';

// Sent as bytes (Fastify never serializes a Buffer); documented as OpenAPI's binary string.
const ZFile = z.custom<Buffer>((value) => Buffer.isBuffer(value)).meta({ type: 'string', format: 'binary' });

/** A 200 whose body is a file (an image, a PDF), described per media type. */
export function binaryResponse(description: string, mediaTypes: readonly string[]) {
  return { description, content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: ZFile }])) };
}
