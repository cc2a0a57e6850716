import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../../components/ui/password-field';
import { expiryChoices, lifetimeUnit } from '../link-options';

/** The contract's SHARE_PASSWORD_MAX_LENGTH (a value import would pull the schema library in). */
const PASSWORD_MAX_LENGTH = 128;

interface LinkSettingsFieldsProps {
  /** The plan's longest lifetime, in hours. */
  maxHours: number;
  expiresIn: number;
  onExpiresInChange: (hours: number) => void;
  password: string;
  onPasswordChange: (password: string) => void;
  /** Why the password cannot be used (too short), shown under its field. */
  passwordError?: string | undefined;
}

/** Expiry and an optional password of a link, on the plans that have them. */
export function LinkSettingsFields({
  maxHours,
  expiresIn,
  onExpiresInChange,
  password,
  onPasswordChange,
  passwordError,
}: LinkSettingsFieldsProps) {
  const { t } = useTranslation();
  const selectId = useId();
  const label = (hours: number) => {
    const { unit, count } = lifetimeUnit(hours);
    return unit === 'days' ? t('dashboard.share.expiryDays', { count }) : t('dashboard.share.expiryHours', { count });
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1.5">
        <label htmlFor={selectId} className="text-sm font-medium text-ink">
          {t('dashboard.share.expiry')}
        </label>
        <select
          id={selectId}
          value={expiresIn}
          onChange={(event) => onExpiresInChange(Number(event.target.value))}
          className="block h-11 w-full rounded-control border border-line-strong bg-surface px-3 text-[0.9375rem] text-ink shadow-xs hover:border-ink-subtle focus:border-brand-500 focus:ring-4 focus:ring-brand-500/20 focus:outline-none"
        >
          {expiryChoices(maxHours).map((hours) => (
            <option key={hours} value={hours}>
              {label(hours)}
            </option>
          ))}
        </select>
      </div>
      <PasswordField
        label={t('dashboard.share.password')}
        hint={t('dashboard.share.passwordHint')}
        autoComplete="new-password"
        maxLength={PASSWORD_MAX_LENGTH}
        value={password}
        onChange={(event) => onPasswordChange(event.target.value)}
        error={passwordError}
      />
    </div>
  );
}
