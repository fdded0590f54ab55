/** The global limiter's 429, in the spec's error shape (also sent for over-budget tRPC batches). */
export const TOO_MANY_REQUESTS_BODY = {
  statusCode: 429,
  success: false,
  code: 'TOO_MANY_REQUESTS',
  message: 'Too many requests. Please wait a moment and try again.',
} as const;
