import { SIGNED_IN, type TAnswers, type TCase } from './matrix-case.js';
import { restStatus, trpcStatus } from './matrix-calls.js';

/**
 * The model registry (issue 47): site administrators only. None of the matrix's actors is one,
 * so every team role gets 403 and no account 401, on every route and procedure.
 */
const SITE_ADMIN: TAnswers = SIGNED_IN(403);
const ID = 'shipped';

export const modelCases: readonly TCase[] = [
  {
    surface: 'GET /api/site/models',
    expect: SITE_ADMIN,
    call: (c) => restStatus(c.t, 'GET', '/api/site/models', c.token),
  },
  {
    surface: 'POST /api/site/models',
    expect: SITE_ADMIN,
    call: (c) => restStatus(c.t, 'POST', '/api/site/models', c.token),
  },
  {
    surface: 'GET /api/site/models/{id}/comparison',
    expect: SITE_ADMIN,
    call: (c) => restStatus(c.t, 'GET', `/api/site/models/${ID}/comparison`, c.token),
  },
  {
    surface: 'POST /api/site/models/{id}/shadow',
    expect: SITE_ADMIN,
    call: (c) => restStatus(c.t, 'POST', `/api/site/models/${ID}/shadow`, c.token),
  },
  {
    surface: 'DELETE /api/site/models/{id}/shadow',
    expect: SITE_ADMIN,
    call: (c) => restStatus(c.t, 'DELETE', `/api/site/models/${ID}/shadow`, c.token),
  },
  {
    surface: 'POST /api/site/models/{id}/promote',
    expect: SITE_ADMIN,
    call: (c) => restStatus(c.t, 'POST', `/api/site/models/${ID}/promote`, c.token, { confirm: true }),
  },
  {
    surface: 'POST /api/site/models/rollback',
    expect: SITE_ADMIN,
    call: (c) => restStatus(c.t, 'POST', '/api/site/models/rollback', c.token),
  },
  {
    surface: 'query site.models',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'query', 'site.models', c.token),
  },
  {
    surface: 'query site.modelComparison',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'query', 'site.modelComparison', c.token, { id: ID }),
  },
  {
    surface: 'mutation site.shadowModel',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'mutation', 'site.shadowModel', c.token, { id: ID }),
  },
  {
    surface: 'mutation site.unshadowModel',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'mutation', 'site.unshadowModel', c.token, { id: ID }),
  },
  {
    surface: 'mutation site.promoteModel',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'mutation', 'site.promoteModel', c.token, { id: ID, confirm: true }),
  },
  {
    surface: 'mutation site.rollbackModel',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'mutation', 'site.rollbackModel', c.token),
  },
  // The live model's card: any account reads it (clinicians read the card; no patient data).
  {
    surface: 'GET /api/model-card/live',
    expect: SIGNED_IN(200),
    call: (c) => restStatus(c.t, 'GET', '/api/model-card/live', c.token),
  },
  {
    surface: 'query modelCard.live',
    expect: SIGNED_IN(200),
    call: (c) => trpcStatus(c.t, 'query', 'modelCard.live', c.token),
  },
];
