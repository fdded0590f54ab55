import { useState, type Dispatch, type SetStateAction } from 'react';
import type { z } from 'zod';
import { useToast } from '../components/toast/use-toast';
import { errorText } from './error-text';
import { validate } from './first-issue';

/** The first failing rule: its field (the schema path's first key, or null) and its message. */
export interface TFormError {
  field: string | null;
  message: string;
}

/** The part of a react-query (tRPC) mutation a form sends with. */
export interface TFormMutation<TVars, TRes> {
  mutate: (vars: TVars, callbacks: { onSuccess: (res: TRes) => void; onError: (err: unknown) => void }) => void;
  isPending: boolean;
}

/** What a valid form sends, and what its answer does. */
interface TSendOptions<D, TVars, TRes> {
  mutation: TFormMutation<TVars, TRes>;
  variables: (data: D) => TVars;
  onSuccess?: (res: TRes, data: D) => void;
  /** A failure toasts `errorText(err, fallback, overrides)` (lib/error-text.ts). */
  errorToast?: { fallback: string; overrides?: Record<string, string> };
  /** After the toast, with its text (null without errorToast). */
  onError?: (err: unknown, text: string | null) => void;
}

type TZodFormOptions<S extends z.ZodType, V extends object, TVars, TRes> = {
  schema: S;
  initialValues: V | (() => V);
  /** What the schema parses; the values themselves when omitted. */
  toInput?: (values: V) => unknown;
  /** Runs once the values pass, before anything is sent (the whole job of a form without a mutation). */
  onValid?: (data: z.output<S>) => void;
} & (TSendOptions<z.output<S>, TVars, TRes> | { mutation?: undefined });

export interface TZodForm<V extends object> {
  values: V;
  setValues: Dispatch<SetStateAction<V>>;
  setValue: <K extends keyof V>(key: K, value: V[K]) => void;
  error: TFormError | null;
  setError: (error: TFormError | null) => void;
  /** The message for `field`, when the failing rule is that field's. */
  fieldError: (field: keyof V & string) => string | null;
  /** The message when no field in `shown` carries it (a form-level line under the fields). */
  otherError: (shown: readonly string[]) => string | null;
  /** Validate with the schema; on success clear the error and send (or hand over) the parsed data. */
  submit: () => void;
  pending: boolean;
}

/**
 * The state every form kept by hand: its values, the first schema error (the shared zod schema
 * holds the spec's messages), and submit → validate → mutate with the toast on failure.
 */
export function useZodForm<S extends z.ZodType, V extends object, TVars = never, TRes = never>(
  options: TZodFormOptions<S, V, TVars, TRes>,
): TZodForm<V> {
  const [values, setValues] = useState<V>(options.initialValues);
  const [error, setError] = useState<TFormError | null>(null);
  const toast = useToast();

  const send = (data: z.output<S>, opts: TSendOptions<z.output<S>, TVars, TRes>) =>
    opts.mutation.mutate(opts.variables(data), {
      onSuccess: (res) => opts.onSuccess?.(res, data),
      onError: (err) => {
        const text = opts.errorToast ? errorText(err, opts.errorToast.fallback, opts.errorToast.overrides) : null;
        if (text !== null) toast.error(text);
        opts.onError?.(err, text);
      },
    });

  const submit = () => {
    const parsed = validate(options.schema, options.toInput ? options.toInput(values) : values);
    if (!parsed.ok) return setError({ field: parsed.field, message: parsed.message });
    setError(null);
    options.onValid?.(parsed.data);
    if (options.mutation) send(parsed.data, options);
  };

  return {
    values,
    setValues,
    setValue: (key, value) => setValues((v) => ({ ...v, [key]: value })),
    error,
    setError,
    fieldError: (field) => (error?.field === field ? error.message : null),
    otherError: (shown) => (error && !shown.includes(error.field ?? '') ? error.message : null),
    submit,
    pending: options.mutation?.isPending ?? false,
  };
}
