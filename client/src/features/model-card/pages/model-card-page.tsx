import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { trpc } from '../../../lib/trpc';
import { PublicPageShell } from '../../../components/public-page-shell';
import { CardText } from '../components/card-text';
import { GateTables, PopulationsTable } from '../components/evaluation-tables';
import { ExternalTable } from '../components/external-table';
import { FindingsTable } from '../components/findings-table';
import { GroupTables } from '../components/group-tables';
import { LiveModelCard } from '../components/live-model-card';
import { ModelHeadline, TargetsTable } from '../components/model-headline';
import { MODEL_CARD } from '../model-card-data';
import './model-card-page.css';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} className="mc-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      {children}
    </section>
  );
}

/**
 * The public model card (/model-card): every figure comes from the shipped model's own files. When
 * a signed-in reader's site runs an imported model (issue 47), that model's own card comes first
 * (the server's figures) and the shipped card follows, said to be not live. Signed out, the live
 * model is not known (the endpoint needs an account) and the page is the shipped card.
 */
export function ModelCardPage() {
  const card = MODEL_CARD;
  const live = trpc.modelCard.live.useQuery(undefined, { retry: false, refetchOnWindowFocus: false });
  const imported = live.data?.imported ?? null;
  const shippedName = `${card.modelName ?? 'the shipped model'} ${card.modelVersion ?? ''}`.trim();
  return (
    <PublicPageShell
      navLabel="Site"
      nav={
        <>
          <Link href="/docs" className="button button-link">
            Docs
          </Link>
          <Link href="/login" className="button button-link">
            Log in
          </Link>
        </>
      }
      mainClassName="mc-main"
      footer={
        <p className="muted">
          Generated at build time from the model files in models/cxr: replacing the model and rebuilding updates this
          page.
        </p>
      }
    >
      {imported ? (
        <>
          <h1>
            Model card: {imported.name} {imported.version} (live at this site)
          </h1>
          <LiveModelCard model={imported} shippedName={shippedName} />
          <h2 className="mc-shipped-heading">The shipped model, not live here: {shippedName}</h2>
        </>
      ) : (
        <h1>Model card: {shippedName}</h1>
      )}
      <Section id="intended-use" title="Intended use">
        <CardText blocks={card.intendedUse} />
      </Section>
      <ModelHeadline card={card} />
      <Section id="findings" title="Findings: what ships and how well">
        <FindingsTable candidates={card.candidates} shipRule={card.shipRule} />
        <TargetsTable card={card} />
      </Section>
      <Section id="external" title="Films from other hospitals">
        <ExternalTable external={card.external} />
      </Section>
      <Section id="groups" title="Per source and age group">
        <GroupTables groups={card.groups} candidates={card.candidates} />
      </Section>
      <Section id="populations" title="All test-split populations">
        <PopulationsTable populations={card.populations} />
      </Section>
      <Section id="gate" title="Input gate">
        <GateTables gate={card.gate} />
      </Section>
      <Section id="how-it-works" title="How it works">
        <CardText blocks={card.howItWorks} asList />
      </Section>
      <Section id="limitations" title="Limitations">
        <CardText blocks={card.limitations} asList />
      </Section>
    </PublicPageShell>
  );
}
