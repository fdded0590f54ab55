import type { TReportSections } from '@contracts/schemas/report';

export const SECTION_LABELS: { key: keyof TReportSections; label: string }[] = [
  { key: 'examination', label: 'Examination' },
  { key: 'comparison', label: 'Comparison' },
  { key: 'findings', label: 'Findings' },
  { key: 'impression', label: 'Impression' },
];

/** A signed report's sections, read-only, as it left for the hospital. */
export function ReportSectionsView({ sections }: { sections: TReportSections }) {
  return (
    <dl className="report-sections">
      {SECTION_LABELS.map((s) => (
        <div key={s.key} className="report-section">
          <dt>{s.label}</dt>
          <dd>{sections[s.key]}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The draft's sections as fields the reader edits. */
export function ReportSectionsForm({
  sections,
  onChange,
  readOnly,
}: {
  sections: TReportSections;
  onChange: (next: TReportSections) => void;
  readOnly: boolean;
}) {
  return (
    <div className="report-sections">
      {SECTION_LABELS.map((s) => (
        <label key={s.key} className="report-section">
          <span className="report-section-label">{s.label}</span>
          <textarea
            id={`report-${s.key}`}
            className="input report-textarea"
            value={sections[s.key]}
            readOnly={readOnly}
            rows={s.key === 'findings' ? 6 : s.key === 'impression' ? 4 : 2}
            onChange={(e) => onChange({ ...sections, [s.key]: e.target.value })}
          />
        </label>
      ))}
    </div>
  );
}
