import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZLiveModelCard } from '@contracts/schemas/models.js';
import { readLiveCard } from '../services/models/read-live-card.js';
import { envelope } from './openapi/responses.js';

/** The live model's own card (issue 47), for any signed-in user; the tRPC twin is modelCard.live. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  app.get(
    '/live',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['model-card'],
        summary:
          "The live model's card: null while the shipped model is live, else the imported model's registry figures and its promotion's comparison",
        response: { 200: envelope(ZLiveModelCard) },
      },
    },
    async () => ({ success: true as const, data: await readLiveCard({ ...deps }) }),
  );
};

export default routes;
