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
  const heart = heartSizeText(r);
  return [
    ...(notAssessed ? [new Paragraph(notAssessed)] : []),
    ...(heart.length ? [heading('Heart size'), ...heart.map((line) => new Paragraph(line))] : []),
  ];
}

/** The same content as the PDF, as an editable Word document. */
export async function renderDocx(r: TExportReport, signed: TReport | null = null): Promise<Buffer> {
  const t = signed ? signedReportText(signed) : null;
  const doc = new Document({
    title: REPORT_TITLE,
    creator: 'Chest Doctor AI',
    sections: [
      {
        children: [
          new Paragraph({ text: REPORT_TITLE, heading: HeadingLevel.TITLE }),
          new Paragraph({ children: [new TextRun({ text: `Generated ${r.generatedAt}`, color: '555555' })] }),
          disclaimer(r.disclaimer),
          ...(t
            ? [
                heading(t.heading),
                new Paragraph({ children: [new TextRun({ text: t.signature, bold: true })] }),
                ...t.blocks.flatMap(([title, text]) => [
                  new Paragraph({ children: [new TextRun({ text: title, bold: true })] }),
                  ...text.split('\n').map((line) => new Paragraph(line)),
                ]),
              ]
            : []),
          heading('Patient'),
          ...patientLines(r).map(pair),
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
            ? table([FINDINGS_HEADER, ...byProbability(r.findings).map(findingRow)], true)
            : new Paragraph('No findings: the image was not analysed.'),
          ...anatomyParagraphs(r),
          ...(await overlay(r)),
          heading('Report'),
          ...reportParagraphs(r.report.text),
          disclaimer(r.disclaimer),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}
