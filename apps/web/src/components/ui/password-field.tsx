import { Eye, EyeOff } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField, type TextFieldProps } from './text-field';

export type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'endAdornment'>;

/** A password input with a button that shows or hides what was typed. */
export function PasswordField({ id, ...props }: PasswordFieldProps) {
  const { t } = useTranslation();
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const [visible, setVisible] = useState(false);

  return (
    <TextField
      {...props}
      id={inputId}
      type={visible ? 'text' : 'password'}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      endAdornment={
        <button
          type="button"
          onClick={() => setVisible((value) => !value)}
          aria-label={visible ? t('ui.hidePassword') : t('ui.showPassword')}
          aria-controls={inputId}
          className="focus-ring inline-flex size-9 items-center justify-center rounded-[calc(var(--radius-control)-2px)] text-ink-subtle transition-colors hover:bg-surface-muted hover:text-ink"
        >
          {visible ? <EyeOff aria-hidden="true" className="size-[1.125rem]" /> : <Eye aria-hidden="true" className="size-[1.125rem]" />}
        </button>
      }
    />
  );
}
