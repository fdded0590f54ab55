import { router } from './trpc.js';
import { analysisRouter } from './routers/analysis/router.js';
import { apiKeyRouter } from './routers/api-key/router.js';
import { authRouter } from './routers/auth/router.js';
import { chatRouter } from './routers/chat/router.js';
import { dicomOwnerRouter } from './routers/dicom-owner/router.js';
import { exportRouter } from './routers/export/router.js';
import { feedbackRouter } from './routers/feedback/router.js';
import { historyRouter } from './routers/history/router.js';
import { modelCardRouter } from './routers/model-card/router.js';
import { reportRouter } from './routers/report/router.js';
import { profileRouter } from './routers/profile/router.js';
import { settingsRouter } from './routers/settings/router.js';
import { siteRouter } from './routers/site/router.js';
import { ssoRouter } from './routers/sso/router.js';
import { teamRouter } from './routers/team/router.js';
import { worklistRouter } from './routers/worklist/router.js';

/** One router per domain; procedures are thin and call services. */
export const appRouter = router({
  auth: authRouter,
  settings: settingsRouter,
  profile: profileRouter,
  history: historyRouter,
  analysis: analysisRouter,
  chat: chatRouter,
  export: exportRouter,
  apiKey: apiKeyRouter,
  feedback: feedbackRouter,
  site: siteRouter,
  worklist: worklistRouter,
  team: teamRouter,
  dicomOwner: dicomOwnerRouter,
  sso: ssoRouter,
  report: reportRouter,
  modelCard: modelCardRouter,
});

export type AppRouter = typeof appRouter;
