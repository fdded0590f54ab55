/** How the page writes the files' numbers; a null is always "not reported", never a zero. */
export const NOT_REPORTED = 'not reported';

export const fixed = (v: number | null, digits = 3): string => (v === null ? NOT_REPORTED : v.toFixed(digits));

/** 0.9731 -> '97.3%' (one decimal: the test splits are too small for more to mean anything). */
export const share = (v: number | null): string => (v === null ? NOT_REPORTED : `${(v * 100).toFixed(1)}%`);

export const count = (v: number | null): string => (v === null ? NOT_REPORTED : v.toLocaleString('en-US'));

/** 'called 232 of 326' as a share of the group; null when either count is missing or n is 0. */
export const ratio = (part: number | null, whole: number | null): number | null =>
  part === null || !whole ? null : part / whole;

export function aucWithCi(auc: number | null, ci: [number, number] | null): string {
  if (auc === null) return NOT_REPORTED;
  return ci
    ? `${auc.toFixed(3)} [${ci[0].toFixed(3)}, ${ci[1].toFixed(3)}]`
    : `${auc.toFixed(3)} (no interval reported)`;
}

/** A target's figure: an AUROC to three decimals, a count (e.g. shipped findings) as a whole number. */
export const figure = (v: number | null): string =>
  v === null ? NOT_REPORTED : Number.isInteger(v) ? String(v) : v.toFixed(3);
