import { lazy, Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { useSearch } from 'wouter/use-browser-location';
import { ErrorBoundary, RenderErrorProbe } from '../components/error-boundary';
import { FullPageSpinner } from '../components/spinner';
import { Toaster } from '../components/toast/toaster';

// Every page is its own chunk: a visitor of /login downloads no chat, profile or docs code.
const DocsPage = lazy(() => import('../features/docs/pages/docs-page').then((m) => ({ default: m.DocsPage })));
const ModelCardPage = lazy(() =>
  import('../features/model-card/pages/model-card-page').then((m) => ({ default: m.ModelCardPage })),
);
const LoginPage = lazy(() => import('../features/auth/pages/login-page').then((m) => ({ default: m.LoginPage })));
const SignupPage = lazy(() => import('../features/auth/pages/signup-page').then((m) => ({ default: m.SignupPage })));
const ForgotPasswordPage = lazy(() =>
  import('../features/auth/pages/forgot-password-page').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  import('../features/auth/pages/reset-password-page').then((m) => ({ default: m.ResetPasswordPage })),
);
const ChatLayout = lazy(() =>
  import('../features/shell/components/chat-layout').then((m) => ({ default: m.ChatLayout })),
);
const ChatHomePage = lazy(() =>
  import('../features/chat/pages/chat-home-page').then((m) => ({ default: m.ChatHomePage })),
);
const ProfilesPage = lazy(() =>
  import('../features/profiles/pages/profiles-page').then((m) => ({ default: m.ProfilesPage })),
);
const SettingsPage = lazy(() =>
  import('../features/settings/pages/settings-page').then((m) => ({ default: m.SettingsPage })),
);
const SsoPreviewPage = lazy(() =>
  import('../features/settings/pages/sso-preview-page').then((m) => ({ default: m.SsoPreviewPage })),
);

const WorklistPage = lazy(() =>
  import('../features/worklist/pages/worklist-page').then((m) => ({ default: m.WorklistPage })),
);

const TeamsPage = lazy(() => import('../features/teams/pages/teams-page').then((m) => ({ default: m.TeamsPage })));
const JoinTeamPage = lazy(() =>
  import('../features/teams/pages/join-team-page').then((m) => ({ default: m.JoinTeamPage })),
);

/**
 * The e-mailed invitation link is /teams/join?token=… (team-invitation-mail.ts); the page lives
 * inside /chat so that signing in comes back to it (lib/session.ts follows only /chat paths).
 */
function ForwardInvitation() {
  const search = useSearch().replace(/^\?/, '');
  return <Redirect to={`/chat/teams/join${search ? `?${search}` : ''}`} replace />;
}

/** Section 2's routes. `/` and unknown paths are replaced by /chat/profiles. */
export function App() {
  return (
    <>
      <ErrorBoundary>
        <RenderErrorProbe />
        <Suspense fallback={<FullPageSpinner />}>
          <Switch>
            <Route path="/docs" component={DocsPage} />
            <Route path="/model-card" component={ModelCardPage} />
            <Route path="/login" component={LoginPage} />
            <Route path="/signup" component={SignupPage} />
            <Route path="/forgot-password" component={ForgotPasswordPage} />
            <Route path="/reset-password" component={ResetPasswordPage} />
            <Route path="/teams/join" component={ForwardInvitation} />
            <Route path="/chat" nest>
              <ChatLayout>
                <Switch>
                  <Route path="/" component={ChatHomePage} />
                  <Route path="/profiles" component={ProfilesPage} />
                  <Route path="/settings/sso-preview" component={SsoPreviewPage} />
                  <Route path="/settings" component={SettingsPage} />
                  <Route path="/worklist" component={WorklistPage} />
                  <Route path="/teams/join" component={JoinTeamPage} />
                  <Route path="/teams" component={TeamsPage} />
                  <Route>
                    <Redirect to="~/chat/profiles" replace />
                  </Route>
                </Switch>
              </ChatLayout>
            </Route>
            <Route>
              <Redirect to="/chat/profiles" replace />
            </Route>
          </Switch>
        </Suspense>
      </ErrorBoundary>
      <Toaster />
    </>
  );
}
