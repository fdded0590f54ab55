/**
 * A tiny store so toasts can be raised from anywhere, including code outside React (the global
 * 401 handler in lib/sign-out-on-401.ts).
 */
export type TToastKind = 'success' | 'error' | 'info';

export interface TToast {
  id: number;
  kind: TToastKind;
  text: string;
  durationMs: number;
}

/** Section 9: 5 seconds by default; the main screens (inside /chat) use 3000 ms. */
export const DEFAULT_TOAST_MS = 5000;
export const MAIN_SCREEN_TOAST_MS = 3000;
const MAX_VISIBLE = 5;

let toasts: readonly TToast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(next: readonly TToast[]): void {
  toasts = next;
  for (const l of listeners) l();
}

export function pushToast(kind: TToastKind, text: string, durationMs = DEFAULT_TOAST_MS): number {
  const id = nextId++;
  // The same text twice in a row (a double click) shows once.
  const rest = toasts.filter((t) => !(t.text === text && t.kind === kind));
  emit([...rest, { id, kind, text, durationMs }].slice(-MAX_VISIBLE));
  return id;
}

export function dismissToast(id: number): void {
  emit(toasts.filter((t) => t.id !== id));
}

export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): readonly TToast[] {
  return toasts;
}
