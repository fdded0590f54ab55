import type { TBaseConfig } from '@contracts/config/base-config.js';

/**
 * Structured JSON logs. Requests are logged by method, route and status only: bodies are never
 * logged (they carry patient data) and credentials are redacted.
 */
export function loggerOptions(config: Pick<TBaseConfig, 'LOG_LEVEL'>) {
  return {
    level: config.LOG_LEVEL,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.token'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; routeOptions?: { url?: string }; url: string; id: string }) => ({
        method: req.method,
        // The route pattern, not the raw URL, so no query string or identifier values reach logs.
        route: req.routeOptions?.url ?? req.url.split('?')[0],
        id: req.id,
      }),
    },
  };
}
