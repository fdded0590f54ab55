import { Link } from 'wouter';
import { SiteCalibrationPanel } from './site-calibration-panel';
import { SiteDestinationsPanel } from './site-destinations-panel';
import { SiteModelsPanel } from './site-models-panel';
import { SiteMonitorPanel } from './site-monitor-panel';
import { SiteUrgentPanel } from './site-urgent-panel';
import './site-tab.css';

/** The Site tab: only for SITE_ADMIN_EMAILS (the server answers 403 to anyone else). */
export function SiteTab() {
  return (
    <div className="site-tab">
      <SiteDestinationsPanel />
      <SiteCalibrationPanel />
      <SiteUrgentPanel />
      <SiteMonitorPanel />
      <SiteModelsPanel />
      <section aria-labelledby="site-sso-title">
        <h2 id="site-sso-title" className="section-title">
          Hospital sign-in (SSO)
        </h2>
        <p className="muted small">
          Check how the IdP&apos;s groups map to teams and roles before a person signs in: paste their claims.
        </p>
        <Link href="/settings/sso-preview" className="button button-secondary">
          SSO mapping preview
        </Link>
      </section>
    </div>
  );
}
