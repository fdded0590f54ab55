import type { TBaseConfig } from '@contracts/config/base-config.js';
import type { LogFn, Logger } from 'pino';
import { serializeError } from './serialize-error.js';

/**
 * Structured JSON logs. Requests are logged by method, route and status only: bodies are never
 * logged (they carry patient data), credentials are redacted, and errors go through the one
 * serializer that never logs a database driver's query parameters (serialize-error.ts).
 */
export function loggerOptions(config: Pick<TBaseConfig, 'LOG_LEVEL'>) {
  return {
    level: config.LOG_LEVEL,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.token'],
      censor: '[redacted]',
    },
    hooks: {
      // Given an Error and no message, pino would copy the error's own message (a driver's
      // carries query parameters) into the line's msg, past the serializer: use its type.
      logMethod(this: Logger, args: Parameters<LogFn>, method: LogFn) {
        const [first, second] = args;
        if (first instanceof Error && typeof second !== 'string') return method.call(this, first, first.name);
        return method.apply(this, args);
      },
    },
    serializers: {
      err: serializeError,
      req: (req: { method: string; routeOptions?: { url?: string }; url: string; id: string }) => ({
        method: req.method,
        // The route pattern, not the raw URL, so no query string or identifier values reach logs.
        route: req.routeOptions?.url ?? req.url.split('?')[0],
        id: req.id,
      }),
    },
  };
}
