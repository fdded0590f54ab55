import type { FastifyPluginAsync } from 'fastify';
import apiKeyRoutes from './api-key.js';
import authRoutes from './auth.js';
import chatRoutes from './chat.js';
import dicomOwnerRoutes from './dicom-owner.js';
import exportRoutes from './export.js';
import feedbackRoutes from './feedback.js';
import historyRoutes from './history.js';
import imageRoutes from './images.js';
import modelCardRoutes from './model-card.js';
import { registerDocs } from './openapi/register-docs.js';
import { securityOf, standardResponses } from './openapi/responses.js';
import profileRoutes from './profile.js';
import reportRoutes from './report.js';
import settingsRoutes from './settings.js';
import siteRoutes from './site.js';
import siteModelRoutes from './site-models.js';
import ssoRoutes from './sso.js';
import teamRoutes from './teams.js';
import timelineRoutes from './timeline.js';
import worklistRoutes from './worklist.js';
import { serializerCompiler, validatorCompiler } from './zod-compilers.js';

/**
 * The spec's REST paths under /api: each shim declares its auth level and zod schemas, calls the
 * service, shapes the reply. Auth is enforced by plugins/auth.ts, errors by handle-error.ts.
 */
const rest: FastifyPluginAsync = async (app) => {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await registerDocs(app);

  // Every route says who may call it; the error statuses that follow from that (and the rate
  // limit's 429) are documented here once rather than in each route.
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (!auth) throw new Error(`${String(route.method)} ${route.url} declares no auth level (config.auth)`);
    route.schema = {
      ...route.schema,
      security: securityOf(auth),
      response: { ...standardResponses(route, auth), ...(route.schema?.response as object | undefined) },
    };
  });

  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(ssoRoutes, { prefix: '/auth/oidc' });
  await app.register(settingsRoutes, { prefix: '/settings' });
  await app.register(profileRoutes, { prefix: '/profile' });
  await app.register(timelineRoutes, { prefix: '/profile' });
  await app.register(historyRoutes, { prefix: '/history' });
  await app.register(imageRoutes, { prefix: '/images' });
  await app.register(chatRoutes, { prefix: '/chat' });
  await app.register(exportRoutes, { prefix: '/export' });
  await app.register(apiKeyRoutes, { prefix: '/api-keys' });
  await app.register(feedbackRoutes, { prefix: '/feedback' });
  await app.register(siteRoutes, { prefix: '/site' });
  await app.register(siteModelRoutes, { prefix: '/site/models' });
  await app.register(modelCardRoutes, { prefix: '/model-card' });
  await app.register(teamRoutes, { prefix: '/teams' });
  await app.register(worklistRoutes, { prefix: '/worklist' });
  await app.register(dicomOwnerRoutes, { prefix: '/dicom-owner' });
  await app.register(reportRoutes, { prefix: '/analyses' });
};

export default rest;
