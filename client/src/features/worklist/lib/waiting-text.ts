const MINUTE = 60_000;

/**
 * How long a study has waited, as a reading room says it: "under 1 min", "45 min", "2 h 5 min",
 * "3 d 4 h" (the smaller unit dropped when it is zero). The exact time goes in a tooltip beside it.
 */
export function waitingText(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / MINUTE));
  if (minutes < 1) return 'under 1 min';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}
