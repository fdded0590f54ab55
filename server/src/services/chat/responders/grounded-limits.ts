import { AP_MAGNIFIES, judgedAp, projectionText } from '@contracts/finding-text.js';
import { flaggedFindings, pct1 } from '@contracts/finding-story.js';
import type { TExternalCandidate } from '@contracts/model/metrics.js';
import { ageYears, ctrCaveat, SUMMARY_LABEL } from '../../analysis/anatomy-text.js';
import { QUALITY_NOTES } from '../../analysis/compose-report.js';
import { bullets, closing, displayOf } from './grounded-scope.js';
import type { TResponderContext } from './responder.js';

/**
 * "What would make this result less reliable here?" (issue 49 item 10): the result's own limits
 * from what is stored for this film (its projection, the checks' flags, the patient's age and what
 * the model does not assess at that age) and the model card's external figures, read from
 * metrics.json. Never the probability list: that is the confidence answer.
 */

const ci = (c: readonly [number, number] | null | undefined): string =>
  c ? ` (95% CI ${c[0].toFixed(3)}-${c[1].toFixed(3)})` : '';

function projectionPara(ctx: TResponderContext): string {
  const p = ctx.result.projection;
  const card = ctx.metrics?.external?.projection;
  const measured =
    card && card.auc !== null
      ? ` The projection output's external figure (model card): AUROC ${card.auc.toFixed(3)}${ci(card.aucCi95)}${card.n !== null ? ` on ${card.n} films` : ''}.`
      : '';
  if (!p)
    return '**Projection:** not recorded for this film (no DICOM ViewPosition and no projection output), so an AP film cannot be told from a PA one here.';
  const ap = judgedAp(p) ? ` Judged as an AP film: ${AP_MAGNIFIES}.` : '';
  return `**Projection:** ${projectionText(p)}.${ap}${measured}`;
}

function checksPara(ctx: TResponderContext): string {
  const { gate, anatomy } = ctx.result;
  const flags = gate.flags.map((f) => QUALITY_NOTES[f] ?? `The automatic check flagged ${f}.`);
  const ctr = anatomy?.ctrUnreliable
    ? [`The cardiothoracic ratio is not measurable: ${anatomy.ctrUnreliable.reason}.`]
    : [];
  const said = [...flags, ...ctr];
  return (
    '**Rotation, inspiration and exposure:** not measured: the automatic checks judge orientation, contrast, colour and size only, ' +
    'and a rotated or poorly inspired film changes the heart and lung outlines the outputs read. ' +
    (said.length ? `On this film: ${said.join(' ')}` : 'On this film the checks flagged nothing.')
  );
}

function agePara(ctx: TResponderContext): string {
  const age = ageYears(ctx.patient.age);
  const group = age === null ? 'unknown' : age < 18 ? 'pediatric' : 'adult';
  const g = ctx.metrics?.groups[`age_group=${group}`];
  const figure =
    g && g.abnormalAuc !== null && g.abnormalAuc !== undefined
      ? ` On the model card's ${group === 'unknown' ? 'films of unknown age' : `${group} test films`} (${g.n ?? '?'} films), the triage score's AUROC was ${Number(g.abnormalAuc).toFixed(3)}.`
      : '';
  const byAge = (ctx.result.notAssessed ?? []).filter((n) => n.reason);
  const withheld = byAge.length
    ? ` Not assessed for this patient: ${byAge.map((n) => `${n.display} (${n.reason})`).join(', ')}.`
    : '';
  // A child's film: the adult CTR reference does not apply (anatomy-text.ts says why, once).
  const who = age === null ? "The patient's age is not recorded." : age < 18 ? ctrCaveat(age) : `Patient age ${age}.`;
  return `**Age:** ${who}${withheld}${figure}`;
}

function externalPara(ctx: TResponderContext): string {
  const ext = ctx.metrics?.external;
  if (!ext)
    return '**Films from other hospitals:** the model card holds no external figures for this model version, so none is quoted.';
  const flagged = flaggedFindings(ctx.result.findings).map((f) => f.label);
  const reported = ctx.result.findings.filter((f) => f.label !== SUMMARY_LABEL).map((f) => f.label);
  const shown = (flagged.length ? flagged : reported)
    .map((l) => [l, ext.candidates[l]] as const)
    .filter((e): e is readonly [string, TExternalCandidate] => e[1] !== undefined && e[1].auc !== null)
    .map(
      ([l, c]) =>
        `${displayOf(ctx.result, l)}: AUROC ${c.auc!.toFixed(3)}${ci(c.aucCi95)}${c.positives !== null ? `, ${c.positives} positive` : ''}${c.negatives !== null ? ` / ${c.negatives} negative films` : ''}${c.population ? ` (${c.population})` : ''}`,
    );
  const where = `${ext.dataset ?? 'external films'}${ext.films !== null ? `, ${ext.films} films` : ''}${ext.patients !== null ? ` of ${ext.patients} patients` : ''}`;
  return (
    `**Films from other hospitals** (model card, ${where}), for ${flagged.length ? 'the findings flagged here' : 'the findings this version reports'}:\n${bullets(shown)}` +
    `${ext.caveat ? `\n\nThe card's caveat: ${ext.caveat}.` : ''}`
  );
}

export function resultLimits(ctx: TResponderContext): string {
  const top = flaggedFindings(ctx.result.findings)[0];
  const lead = top
    ? `What could make this result less reliable here (its leading flag: ${top.display} ${pct1(top.probability)}), from what is stored for this film and the model card:`
    : 'What could make this result less reliable here, from what is stored for this film and the model card:';
  return (
    `${lead}\n\n${projectionPara(ctx)}\n\n${checksPara(ctx)}\n\n${agePara(ctx)}\n\n${externalPara(ctx)}\n\n` +
    'Your patients, your equipment and your case mix may differ from all of these.' +
    closing
  );
}
