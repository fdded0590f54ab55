import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import type { TExportReport } from '@contracts/schemas/export.js';
import {
  analysisLines,
  FINDINGS_HEADER,
  byProbability,
  findingRow,
  heartSizeText,
  notAssessedText,
  patientLines,
  REPORT_TITLE,
} from './export-text.js';
import { reportBlocks } from './report-blocks.js';
import { signedReportText } from './signed-report-text.js';
import type { TReport } from '@contracts/schemas/report.js';

const require = createRequire(import.meta.url);
// The built-in PDF fonts only cover Latin-1; patient names need more (Ł, Ω, Я…). DejaVu covers
// Latin, Greek and Cyrillic; CJK names fall back to missing glyphs (see docs/exports-dicom-batch.md).
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

async function overlayImage(r: TExportReport): Promise<Buffer | null> {
  if (!r.heatmap) return null;
  const data = Buffer.from(r.heatmap.dataBase64, 'base64');
  // pdfkit embeds PNG and JPEG only.
  return /png|jpe?g/.test(r.heatmap.mediaType) ? data : sharp(data).png().toBuffer();
}

/** A one-to-three page A4 report: disclaimer first, then patient, model, findings, overlay, text. */
export async function renderPdf(r: TExportReport, signed: TReport | null = null): Promise<Buffer> {
  const overlay = await overlayImage(r);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: REPORT_TITLE, Creator: 'Chest Doctor AI', Producer: 'Chest Doctor AI' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('body', FONT);
  doc.registerFont('bold', FONT_BOLD);
  const width = doc.page.width - 100;

  doc.font('bold').fontSize(18).text(REPORT_TITLE);
  doc.font('body').fontSize(9).fillColor('#555').text(`Generated ${r.generatedAt}`).moveDown(0.5);
  doc.fillColor('#8a1c1c').font('bold').fontSize(9).text(r.disclaimer, { width }).fillColor('black').moveDown();

  const section = (title: string) => doc.moveDown(0.6).font('bold').fontSize(13).text(title).moveDown(0.2);
  const pairs = (rows: [string, string][]) => {
    for (const [k, v] of rows) doc.font('bold').fontSize(10).text(`${k}: `, { continued: true }).font('body').text(v);
  };
  if (signed) {
    const t = signedReportText(signed);
    section(t.heading);
    doc.font('bold').fontSize(10).text(t.signature).moveDown(0.3);
    for (const [title, text] of t.blocks)
      doc.font('bold').fontSize(10).text(title).font('body').text(text).moveDown(0.3);
  }
  section('Patient');
  pairs(patientLines(r));
  section('Analysis');
  pairs(analysisLines(r));
  doc
    .font('bold')
    .fontSize(10)
    .text('Model card: ', { continued: true })
    .font('body')
    .fillColor('#1a4fa0')
    .text(r.model.cardUrl, { link: r.model.cardUrl, underline: true })
    .fillColor('black');

  section('Findings');
  const cols = [width * 0.4, width * 0.18, width * 0.18, width * 0.24];
  const row = (cells: string[], bold: boolean) => {
    const y = doc.y;
    let x = doc.page.margins.left;
    doc.font(bold ? 'bold' : 'body').fontSize(10);
    cells.forEach((c, i) => {
      doc.text(c, x, y, { width: (cols[i] ?? 80) - 6 });
      x += cols[i] ?? 80;
    });
    doc.x = doc.page.margins.left;
    doc.moveDown(0.3);
  };
  row(FINDINGS_HEADER, true);
  if (r.findings.length === 0) doc.font('body').text('No findings: the image was not analysed.');
  for (const f of byProbability(r.findings)) row(findingRow(f), false);
  const notAssessed = notAssessedText(r);
  if (notAssessed) doc.moveDown(0.2).font('body').fontSize(10).text(notAssessed, { width });
  const heart = heartSizeText(r);
  if (heart.length) {
    section('Heart size');
    for (const line of heart) doc.font('body').fontSize(10).text(line, { width });
  }

  if (overlay) {
    section('Explanation overlay');
    doc.image(overlay, { fit: [260, 260] });
    doc
      .moveDown(0.3)
      .font('body')
      .fontSize(8)
      .text('Regions that most influenced the top score. It shows where the model looked, not the extent of disease.', {
        width,
      });
  }

  section('Report');
  for (const b of reportBlocks(r.report.text)) {
    if (b.kind === 'heading') doc.moveDown(0.3).font('bold').fontSize(11).text(b.text);
    else if (b.kind === 'paragraph') doc.font('body').fontSize(10).text(b.text, { width });
    else if (b.kind === 'bullet') doc.font('body').fontSize(10).text(`•  ${b.text}`, { width, indent: 10 });
    else if (b.kind === 'table')
      for (const cells of b.rows) doc.font('body').fontSize(10).text(cells.join('   |   '), { width });
    else doc.moveDown(0.5);
  }
  doc.moveDown().font('bold').fontSize(9).fillColor('#8a1c1c').text(r.disclaimer, { width }).fillColor('black');
  doc.end();
  return done;
}
