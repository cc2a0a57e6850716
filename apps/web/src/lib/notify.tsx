import type { ParseKeys } from 'i18next';
import { useEffect } from 'react';
import toast, { type Toast } from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { ApiError } from './api-client';
import { translatedServerError } from './server-errors';

/** A key of the locale files: a toast's text is always one, never a literal string. */
export type MessageKey = ParseKeys;

type Values = Record<string, string | number>;

export interface NotifyOptions {
  /** Interpolation values of `key`. */
  values?: Values;
  /**
   * Toasts of one group merge into one while it is shown, counting ("3 folders created" with
   * `many`, else the text with "×3"). By default a group is the key with its values: the same
   * toast twice is one toast.
   */
  group?: string;
  /** The plural key (`count` given) shown once the group counts more than one. */
  many?: MessageKey;
  /**
   * A refusal to explain: its code's translation in the current language, the server's own
   * text in English (the server's language, and more precise), else `key`.
   */
  error?: unknown;
  /** Shown once however often asked while it is up (a notice a rerun of an effect repeats): never counted. */
  once?: boolean;
  duration?: number;
}

/** How many times each group shown now was asked for; a group leaves when its toast starts to go. */
const counts = new Map<string, number>();

type Kind = 'success' | 'error' | 'info';

/**
 * Raises a toast (docs/decisions/0055-toasts.md) whose text is translated when it renders, not when it is asked for: it
 * follows a language switch made while it is up (the settings' own "Settings updated" is
 * asked for before the new language has loaded) and never shows a stale language.
 */
function show(kind: Kind, key: MessageKey, options: NotifyOptions = {}): string {
  const group = options.group ?? `${key}|${JSON.stringify(options.values ?? {})}`;
  const count = options.once ? 1 : (counts.get(group) ?? 0) + 1;
  counts.set(group, count);
  const id = `notify:${group}`;
  const message = (shown: Toast) => (
    <ToastText
      textKey={key}
      values={options.values}
      many={options.many}
      count={count}
      error={options.error}
      visible={shown.visible}
      onLeaving={() => {
        if (counts.get(group) === count) counts.delete(group);
      }}
    />
  );
  // The same id updates the toast in place and restarts its time, so a group stays one toast.
  const raise = kind === 'info' ? toast : toast[kind];
  return raise(message, { id, ...(options.duration ? { duration: options.duration } : {}) });
}

/** The app's toasts: `notify.success('dashboard.createFolder.success', { many: 'dashboard.createFolder.successMany' })`. */
export const notify = {
  success: (key: MessageKey, options?: NotifyOptions) => show('success', key, options),
  error: (key: MessageKey, options?: NotifyOptions) => show('error', key, options),
  info: (key: MessageKey, options?: NotifyOptions) => show('info', key, options),
};

/** `t` over any key of the union: TypeScript cannot check interpolation values against a union of keys. */
type LooseT = (key: string, options?: Values) => string;

interface ToastTextProps {
  textKey: MessageKey;
  values: Values | undefined;
  many: MessageKey | undefined;
  count: number;
  error: unknown;
  visible: boolean;
  onLeaving: () => void;
}

function ToastText({ textKey, values, many, count, error, visible, onLeaving }: ToastTextProps) {
  const { t: typedT, i18n } = useTranslation();
  const t = typedT as unknown as LooseT;
  useEffect(() => {
    if (!visible) onLeaving();
  }, [visible, onLeaving]);

  if (count > 1 && many) return <>{t(many, { ...values, count })}</>;
  const text = refusalText(error, i18n.resolvedLanguage ?? i18n.language) ?? t(textKey, values);
  if (count === 1) return <>{text}</>;
  return (
    <>
      {text} <span className="font-semibold tabular-nums">{t('common.toastTimes', { count })}</span>
    </>
  );
}

function refusalText(error: unknown, language: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return translatedServerError(error.code) ?? (language.startsWith('en') ? error.serverMessage : undefined);
}
