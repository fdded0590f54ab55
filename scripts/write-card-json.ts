/**
 * Writes models/cxr/card.json (the model card's prose sections as data, contracts/model/card.ts)
 * from models/cxr/MODEL_CARD.md. A stopgap for model 2, whose card writer predates card.json:
 * the Python card writer of model 3 writes card.json itself. Run: npx tsx scripts/write-card-json.ts [MODEL_DIR]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cardTextFromMarkdown } from './lib/card-text-from-markdown.js';

const dir = process.argv[2] ?? join('models', 'cxr');
const card = cardTextFromMarkdown(readFileSync(join(dir, 'MODEL_CARD.md'), 'utf8'));
writeFileSync(join(dir, 'card.json'), `${JSON.stringify({ source: 'MODEL_CARD.md', ...card }, null, 1)}\n`);
console.log(`wrote ${join(dir, 'card.json')}`);
