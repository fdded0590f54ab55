import type { FastifyPluginAsync } from 'fastify';
import apiKeyRoutes from './api-key.js';
import authRoutes from './auth.js';
import chatRoutes from './chat.js';
import exportRoutes from './export.js';
import feedbackRoutes from './feedback.js';
import historyRoutes from './history.js';
import openapiRoutes from './openapi.js';
import imageRoutes from './images.js';
import profileRoutes from './profile.js';
import settingsRoutes from './settings.js';

/** The spec's REST paths under /api: each shim parses, calls the service, shapes the reply. */
const rest: FastifyPluginAsync = async (app) => {
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(settingsRoutes, { prefix: '/settings' });
  await app.register(profileRoutes, { prefix: '/profile' });
  await app.register(historyRoutes, { prefix: '/history' });
  await app.register(imageRoutes, { prefix: '/images' });
  await app.register(chatRoutes, { prefix: '/chat' });
  await app.register(exportRoutes, { prefix: '/export' });
  await app.register(apiKeyRoutes, { prefix: '/api-keys' });
  await app.register(feedbackRoutes, { prefix: '/feedback' });
  await app.register(openapiRoutes);
};

export default rest;
