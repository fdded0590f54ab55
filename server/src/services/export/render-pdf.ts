import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import type { TExportReport } from '@contracts/schemas/export.js';
import {
  AI_SECTION_TITLE,
  analysisLines,
  documentTitle,
  FINDINGS_HEADER,
  findingRows,
  heartSizeText,
  notAssessedText,
  patientLines,
  removedText,
} from './export-text.js';
import { reportBlocks } from './report-blocks.js';
import { signedReportText } from './signed-report-text.js';

const require = createRequire(import.meta.url);
// The built-in PDF fonts only cover Latin-1; patient names need more (Ł, Ω, Я…). DejaVu covers
// Latin, Greek and Cyrillic; CJK names fall back to missing glyphs (see docs/exports-dicom-batch.md).
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');
const RED = '#8a1c1c';

async function overlayImage(r: TExportReport): Promise<Buffer | null> {
  if (!r.heatmap) return null;
  const data = Buffer.from(r.heatmap.dataBase64, 'base64');
  // pdfkit embeds PNG and JPEG only.
  return /png|jpe?g/.test(r.heatmap.mediaType) ? data : sharp(data).png().toBuffer();
}

type TDoc = InstanceType<typeof PDFDocument>;

/**
 * One table row, each cell wrapped in its column; the next row starts below the tallest cell (a
 * wrapped name or header once overprinted the row under it, issue 49), on a new page when it
 * would not fit.
 */
function tableRow(doc: TDoc, cols: number[], cells: string[], bold: boolean): void {
  doc.font(bold ? 'bold' : 'body').fontSize(10);
  const height = Math.max(...cells.map((c, i) => doc.heightOfString(c, { width: (cols[i] ?? 80) - 6 })));
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
  const y = doc.y;
  let x = doc.page.margins.left;
  cells.forEach((c, i) => {
    doc.text(c, x, y, { width: (cols[i] ?? 80) - 6 });
    x += cols[i] ?? 80;
  });
  doc.x = doc.page.margins.left;
  doc.y = y + height + 4;
}

/**
 * A one-to-three page A4 report. Before signing: the AI analysis, disclaimer first, then patient,
 * model, findings, overlay, the AI's text. Once signed (issue 49): "Radiology report", the signer
 * and time, the patient, the signed sections and addenda, then the AI's figures marked as the AI's.
 */
export async function renderPdf(r: TExportReport): Promise<Buffer> {
  const overlay = await overlayImage(r);
  const signed = r.report.signed;
  const title = documentTitle(r);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: title, Creator: 'Chest Doctor AI', Producer: 'Chest Doctor AI' },
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
  const section = (text: string) => doc.moveDown(0.6).font('bold').fontSize(13).text(text, { width }).moveDown(0.2);
  const pairs = (rows: [string, string][]) => {
    for (const [k, v] of rows) doc.font('bold').fontSize(10).text(`${k}: `, { continued: true }).font('body').text(v);
  };
  const disclaimer = () =>
    doc.fillColor(RED).font('bold').fontSize(9).text(r.disclaimer, { width }).fillColor('black').moveDown(0.5);

  doc.font('bold').fontSize(18).text(title);
  if (signed) {
    const t = signedReportText(signed);
    doc.font('bold').fontSize(11).text(t.signature, { width });
    doc.font('body').fontSize(9).fillColor('#555').text(`Generated ${r.generatedAt}`).fillColor('black');
    section('Patient');
    pairs(patientLines(r));
    for (const [heading, text] of t.blocks) {
      doc.moveDown(0.5).font('bold').fontSize(11).text(heading, { width });
      doc.font('body').fontSize(10).text(text, { width });
    }
    section(AI_SECTION_TITLE);
    disclaimer();
  } else {
    doc.font('body').fontSize(9).fillColor('#555').text(`Generated ${r.generatedAt}`).fillColor('black').moveDown(0.5);
    disclaimer();
    section('Patient');
    pairs(patientLines(r));
  }
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
  const cols = [width * 0.36, width * 0.16, width * 0.18, width * 0.3];
  tableRow(doc, cols, FINDINGS_HEADER, true);
  if (r.findings.length === 0) doc.font('body').text('No findings: the image was not analysed.');
  for (const cells of findingRows(r)) tableRow(doc, cols, cells, false);
  const removed = removedText(r);
  if (removed) doc.moveDown(0.2).font('bold').fontSize(10).text(removed, { width });
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
  // The AI's drafted text would restate what the signer may have removed: once signed, the signed report replaces it.
  if (!signed) {
    section('Report');
    for (const b of reportBlocks(r.report.text)) {
      if (b.kind === 'heading') doc.moveDown(0.3).font('bold').fontSize(11).text(b.text);
      else if (b.kind === 'paragraph') doc.font('body').fontSize(10).text(b.text, { width });
      else if (b.kind === 'bullet') doc.font('body').fontSize(10).text(`•  ${b.text}`, { width, indent: 10 });
      else if (b.kind === 'table')
        for (const cells of b.rows) doc.font('body').fontSize(10).text(cells.join('   |   '), { width });
      else doc.moveDown(0.5);
    }
    doc.moveDown();
    disclaimer();
  }
  doc.end();
  return done;
}
