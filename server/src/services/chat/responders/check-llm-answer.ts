/**
 * The guard on a language model's answer: every number it quotes must come from the stored facts
 * it was given (the result, the model card, the grounded answer, the chat so far). An answer with
 * any other number is not shown. Pure.
 *
 * A quoted number is grounded when a fact number rounds to it at the precision it is quoted with,
 * directly or as a fraction/percentage of it ('89%' from '88.8%', '0.94' from '0.9399', '94%' from
 * '0.940'). Whole numbers up to 10 pass: they count things ("two findings", a list's "1.").
 */

const NUMBER = /(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d])|(?<![\w.])\d+(?:\.\d+)?(?![\d])/g;

interface TQuoted {
  text: string;
  value: number;
  decimals: number;
}

function numbersIn(text: string): TQuoted[] {
  return [...text.matchAll(NUMBER)].map((m) => {
    const plain = m[0].replace(/,/g, '');
    return { text: m[0], value: Number(plain), decimals: plain.split('.')[1]?.length ?? 0 };
  });
}

const roundTo = (v: number, d: number): number => Math.round(v * 10 ** d) / 10 ** d;

/** The numbers of `answer` that no fact backs (as quoted), in order, without repeats. */
export function ungroundedNumbers(answer: string, facts: readonly string[]): string[] {
  const known = facts.flatMap(numbersIn).map((n) => n.value);
  const grounded = (q: TQuoted): boolean => {
    if (q.decimals === 0 && q.value <= 10) return true;
    const eq = (v: number) => Math.abs(roundTo(v, q.decimals) - q.value) < 1e-9;
    return known.some((f) => eq(f) || eq(f * 100) || eq(f / 100));
  };
  return [
    ...new Set(
      numbersIn(answer)
        .filter((q) => !grounded(q))
        .map((q) => q.text),
    ),
  ];
}
