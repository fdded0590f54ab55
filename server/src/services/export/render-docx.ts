import {
  AlignmentType,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  ImageRun,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
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

const bold = (text: string) => new Paragraph({ children: [new TextRun({ text, bold: true })] });
const heading = (text: string) => new Paragraph({ text, heading: HeadingLevel.HEADING_2 });
const pair = ([k, v]: [string, string]) =>
  new Paragraph({ children: [new TextRun({ text: `${k}: `, bold: true }), new TextRun(v)] });
const disclaimer = (text: string) => new Paragraph({ children: [new TextRun({ text, bold: true, color: '8A1C1C' })] });

function table(rows: string[][], headerRow: boolean): Table {
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: rows.map(
      (cells, i) =>
        new TableRow({
          tableHeader: headerRow && i === 0,
          children: cells.map(
            (c) =>
              new TableCell({
                children: [new Paragraph({ children: [new TextRun({ text: c, bold: headerRow && i === 0 })] })],
              }),
          ),
        }),
    ),
  });
}

async function overlay(r: TExportReport): Promise<Paragraph[]> {
  if (!r.heatmap) return [];
  // Word embeds PNG/JPEG; re-encode anything else and size it to at most 9 cm.
  const png = await sharp(Buffer.from(r.heatmap.dataBase64, 'base64')).png().toBuffer({ resolveWithObject: true });
  const scale = Math.min(1, 340 / Math.max(png.info.width, png.info.height));
  return [
    heading('Explanation overlay'),
    new Paragraph({
      alignment: AlignmentType.LEFT,
      children: [
        new ImageRun({
          type: 'png',
          data: png.data,
          transformation: { width: Math.round(png.info.width * scale), height: Math.round(png.info.height * scale) },
        }),
      ],
    }),
    new Paragraph(
      'Regions that most influenced the top score. It shows where the model looked, not the extent of disease.',
    ),
  ];
}

function reportParagraphs(markdown: string): (Paragraph | Table)[] {
  return reportBlocks(markdown).map((b) => {
    switch (b.kind) {
      case 'heading':
        return new Paragraph({ text: b.text, heading: HeadingLevel.HEADING_3 });
      case 'paragraph':
        return new Paragraph(b.text);
      case 'bullet':
        return new Paragraph({ text: b.text, bullet: { level: 0 } });
      case 'table':
        return table(b.rows, true);
      case 'rule':
        return new Paragraph('');
    }
  });
}

/** The not-assessed line under the findings, then the heart size (CTR) section when there is one. */
function anatomyParagraphs(r: TExportReport): Paragraph[] {
  const notAssessed = notAssessedText(r);
  const removed = removedText(r);
  const heart = heartSizeText(r);
  return [
    ...(removed ? [bold(removed)] : []),
    ...(notAssessed ? [new Paragraph(notAssessed)] : []),
    ...(heart.length ? [heading('Heart size'), ...heart.map((line) => new Paragraph(line))] : []),
  ];
}

const generated = (r: TExportReport) =>
  new Paragraph({ children: [new TextRun({ text: `Generated ${r.generatedAt}`, color: '555555' })] });

/** Once signed (issue 49): the signer and time first, the patient, then the signed sections and addenda. */
function signedParagraphs(r: TExportReport): Paragraph[] {
  if (!r.report.signed) return [];
  const t = signedReportText(r.report.signed);
  return [
    bold(t.signature),
    generated(r),
    heading('Patient'),
    ...patientLines(r).map(pair),
    ...t.blocks.flatMap(([title, text]) => [
      new Paragraph({ text: title, heading: HeadingLevel.HEADING_3 }),
      ...text.split('\n').map((line) => new Paragraph(line)),
    ]),
    heading(AI_SECTION_TITLE),
    disclaimer(r.disclaimer),
  ];
}

/** The same content as the PDF, as an editable Word document. */
export async function renderDocx(r: TExportReport): Promise<Buffer> {
  const title = documentTitle(r);
  const signed = r.report.signed;
  const doc = new Document({
    title,
    creator: 'Chest Doctor AI',
    sections: [
      {
        children: [
          new Paragraph({ text: title, heading: HeadingLevel.TITLE }),
          ...(signed
            ? signedParagraphs(r)
            : [generated(r), disclaimer(r.disclaimer), heading('Patient'), ...patientLines(r).map(pair)]),
          heading('Analysis'),
          ...analysisLines(r).map(pair),
          new Paragraph({
            children: [
              new TextRun({ text: 'Model card: ', bold: true }),
              new ExternalHyperlink({
                link: r.model.cardUrl,
                children: [new TextRun({ text: r.model.cardUrl, style: 'Hyperlink' })],
              }),
            ],
          }),
          heading('Findings'),
          r.findings.length
            ? table([FINDINGS_HEADER, ...findingRows(r)], true)
            : new Paragraph('No findings: the image was not analysed.'),
          ...anatomyParagraphs(r),
          ...(await overlay(r)),
          // The AI's drafted text would restate what the signer may have removed: the signed report replaces it.
          ...(signed ? [] : [heading('Report'), ...reportParagraphs(r.report.text), disclaimer(r.disclaimer)]),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}
