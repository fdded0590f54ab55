import './export-buttons.css';

const FORMATS = [
  { ext: 'pdf', label: 'PDF', title: 'Download the report as PDF' },
  { ext: 'docx', label: 'Word', title: 'Download the report as a Word document (DOCX)' },
  { ext: 'json', label: 'JSON', title: 'Download the structured result (chest-doctor-ai/report@4)' },
  { ext: 'fhir.json', label: 'FHIR', title: 'Download a FHIR R4 DiagnosticReport bundle' },
] as const;

/**
 * Download links for an analysed chat (GET /api/export/<chatId>.<ext>, same-origin, sent with the
 * session cookie). Render only once the chat's analysis has finished; before that the server
 * answers 409.
 */
export function ExportButtons({ chatId }: { chatId: string }) {
  return (
    <div className="export-buttons" role="group" aria-label="Export report">
      <span className="muted">Export:</span>
      {FORMATS.map((f) => (
        <a
          key={f.ext}
          className="button button-secondary"
          href={`/api/export/${encodeURIComponent(chatId)}.${f.ext}`}
          download
          title={f.title}
        >
          {f.label}
        </a>
      ))}
    </div>
  );
}
