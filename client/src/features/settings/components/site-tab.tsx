import { SiteCalibrationPanel } from './site-calibration-panel';
import { SiteMonitorPanel } from './site-monitor-panel';
import { SiteUrgentPanel } from './site-urgent-panel';
import './site-tab.css';

/** The Site tab: only for SITE_ADMIN_EMAILS (the server answers 403 to anyone else). */
export function SiteTab() {
  return (
    <div className="site-tab">
      <SiteCalibrationPanel />
      <SiteUrgentPanel />
      <SiteMonitorPanel />
    </div>
  );
}
