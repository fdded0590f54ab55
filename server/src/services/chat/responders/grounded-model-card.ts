import { SUMMARY_LABEL } from '../../analysis/anatomy-text.js';
import { bullets, closing, displayOf, figureText } from './grounded-scope.js';
import type { TResponderContext } from './responder.js';

/** An imported model's figures: its operating points on this site's labelled cohort (issue 47). */
function cohortAccuracy(metrics: NonNullable<TResponderContext['metrics']>, shown: string, total: string): string {
  return (
    `Measured performance of ${metrics.modelName || 'this model'} ${metrics.modelVersion}, a model this site imported, on this site's labelled cohort ` +
    `(its live model card; npm run batch -- … --calibrate), per finding:\n${shown}${total}\n\n` +
    "How to read these: each threshold was chosen on the same films (maximising sensitivity + specificity), so sensitivity and specificity on new films may be lower; the cohort's labels are the site's own reads. " +
    "The shipped model's card describes another model and does not apply to this result." +
    closing
  );
}

/**
 * "How accurate is this model?": the model card's measured figures (metrics.json through the
 * server's reader), per finding with intervals and populations, for the model version that
 * produced this result only. Not this image's probabilities: those are the confidence answer.
 */
export function modelAccuracy(ctx: TResponderContext, labels: string[] = []): string {
  const { result, metrics } = ctx;
  const cohort = ctx.metricsSource === 'site-cohort';
  if (!metrics) {
    return (
      `No model card figures are available for the model that produced this result (${result.modelName} ${result.modelVersion}), ` +
      (cohort
        ? "so I will not quote any: it is a model this site imported, with no operating points measured on a labelled cohort, and the shipped model's card describes another model."
        : 'so I will not quote any: figures of another model version would not describe this one.') +
      closing
    );
  }
  const reported = result.findings.filter((f) => f.label !== SUMMARY_LABEL).map((f) => f.label);
  const asked = labels.filter((l) => reported.includes(l));
  const shown = (asked.length ? asked : reported).map((l) => {
    const fig = figureText(metrics.findings[l]);
    return `**${displayOf(result, l)}**: ${fig ?? (cohort ? 'no operating point measured for it' : 'the model card has no measured figure for it')}`;
  });
  const unshipped = asked.length
    ? []
    : Object.keys(metrics.findings)
        .filter((l) => !reported.includes(l) && (result.notAssessed?.some((n) => n.label === l) ?? false))
        .map((l) => displayOf(result, l));
  const total =
    metrics.testImages !== null
      ? ` The ${cohort ? "site's cohort" : 'evaluation'} used ${metrics.testImages.toLocaleString('en-US')} ${cohort ? 'studies' : 'test images'} in all.`
      : '';
  const notShipped = unshipped.length
    ? `\n\nNot reported by this version (below its shipping rule${metrics.shipRule ? `: ${metrics.shipRule}` : ''}): ${unshipped.join(', ')}.`
    : '';
  if (cohort) return cohortAccuracy(metrics, bullets(shown), total);
  return (
    `Measured performance from the model card (${metrics.modelName || 'model'} ${metrics.modelVersion}), per finding:\n${bullets(shown)}${total}${notShipped}\n\n` +
    'How to read these: the ROC AUC says how well the output ranks images with the finding above images without it, on held-out public data from the population named; ' +
    "it is not the chance that this image's call is right. The interval is the 95% bootstrap range. Results on your patients, your equipment and your case mix may differ, " +
    'and a site threshold changes sensitivity and specificity.' +
    closing
  );
}
