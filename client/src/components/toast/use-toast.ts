import { createContext, useContext, useMemo } from 'react';
import { DEFAULT_TOAST_MS, pushToast } from './toast-store';

/** The /chat layout provides 3000 ms (section 9); everywhere else keeps the 5 s default. */
export const ToastDurationContext = createContext(DEFAULT_TOAST_MS);

export function useToast() {
  const duration = useContext(ToastDurationContext);
  return useMemo(
    () => ({
      success: (text: string) => pushToast('success', text, duration),
      error: (text: string) => pushToast('error', text, duration),
      info: (text: string) => pushToast('info', text, duration),
    }),
    [duration],
  );
}
