import { Redirect, Route, Switch } from 'wouter';
import { DocsPage } from '../features/docs/pages/docs-page';

export function App() {
  return (
    <Switch>
      <Route path="/docs" component={DocsPage} />
      <Route>
        <Redirect to="/chat/profiles" replace />
      </Route>
    </Switch>
  );
}
