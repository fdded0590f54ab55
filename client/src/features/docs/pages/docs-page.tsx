import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { PublicPageShell } from '../../../components/public-page-shell';
import { Tabs } from '../../../components/tabs';
import { FeaturesTab, GuideTab, OverviewTab } from '../components/docs-overview';
import { FaqTab, PricingTab, TestimonialsTab } from '../components/docs-pricing';
import './docs-page.css';

const TABS = [
  { key: 'overview', label: 'Overview', Panel: OverviewTab },
  { key: 'features', label: 'Features', Panel: FeaturesTab },
  { key: 'guide', label: 'Guide', Panel: GuideTab },
  { key: 'pricing', label: 'Pricing', Panel: PricingTab },
  { key: 'testimonials', label: 'Testimonials', Panel: TestimonialsTab },
  { key: 'faq', label: 'FAQ', Panel: FaqTab },
] as const;
type TTab = (typeof TABS)[number]['key'];

/** Support contact for the footer; a deployment sets its own with VITE_SUPPORT_EMAIL at build time. */
const SUPPORT_EMAIL: string = (import.meta.env.VITE_SUPPORT_EMAIL as string | undefined) ?? 'support@chestdoctor.ai';

/** The public page (/docs): marketing and documentation. */
export function DocsPage() {
  const [tab, setTab] = useState<TTab>('overview');
  const [, navigate] = useLocation();
  // Exports made before the model card had its own page link to /docs#model-card.
  useEffect(() => {
    if (window.location.hash === '#model-card') navigate('/model-card', { replace: true });
  }, [navigate]);
  const active = TABS.find((t) => t.key === tab) ?? TABS[0];
  return (
    <PublicPageShell
      navLabel="Account"
      nav={
        <>
          <Link href="/login" className="button button-link">
            Log in
          </Link>
          <Link href="/signup" className="button button-primary">
            Sign up
          </Link>
        </>
      }
      footer={
        <>
          <p>
            Support: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
          </p>
          <p className="muted">Chest Doctor AI · open-source, self-hosted chest X-ray analysis</p>
        </>
      }
    >
      <section className="docs-hero">
        <h1>Chest Doctor AI</h1>
        <p className="docs-lead">
          Chest X-ray analysis with a follow-up chat, running on your own hospital servers. Built to assist clinicians,
          not to replace them.
        </p>
      </section>
      <Tabs
        idPrefix="docs"
        label="Documentation sections"
        tabs={TABS}
        value={tab}
        onChange={setTab}
        className="docs-tabs"
        panelClassName="docs-panel"
      >
        <active.Panel />
      </Tabs>
      <aside className="disclaimer" aria-labelledby="disclaimer-heading">
        <h2 id="disclaimer-heading">Medical disclaimer</h2>
        <p>
          Chest Doctor AI is an assistive tool only. Its output is not a diagnosis and is not a substitute for
          professional medical judgement: a qualified clinician must review every image and result before any clinical
          decision.
        </p>
      </aside>
    </PublicPageShell>
  );
}
