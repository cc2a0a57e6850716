import { useTranslation } from 'react-i18next';
import type { LinkRole } from '@cloudvault/contract/shares';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { TextareaField } from '../../../components/ui/textarea-field';
import { linkRoleChoices, takesMessage } from '../share-roles';

/** The contract's SHARE_MESSAGE_MAX_LENGTH. */
const MESSAGE_MAX_LENGTH = 1000;

interface LinkRoleFieldsProps {
  kind: 'file' | 'folder';
  role: LinkRole;
  onRoleChange: (role: LinkRole) => void;
  /** The download limit as typed (empty: none). */
  limit: string;
  onLimitChange: (limit: string) => void;
  limitError?: string | undefined;
  message: string;
  onMessageChange: (message: string) => void;
}

/**
 * What a link's visitors may do, on every plan: its role, a download limit after which it
 * stops, and for a file request the message its visitors read. View only says what it cannot
 * promise: nothing stops a screenshot.
 */
export function LinkRoleFields(props: LinkRoleFieldsProps) {
  const { kind, role, onRoleChange, limit, onLimitChange, limitError, message, onMessageChange } = props;
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <SelectField
          label={t('dashboard.share.linkRole')}
          value={role}
          options={linkRoleChoices(kind).map((choice) => ({ value: choice, label: t(`dashboard.share.linkRoles.${choice}`) }))}
          onChange={onRoleChange}
        />
        <p className="text-xs text-ink-muted">{t(`dashboard.share.linkRoleHints.${role}`)}</p>
      </div>
      <TextField
        label={t('dashboard.share.downloadLimit')}
        hint={t('dashboard.share.downloadLimitHint')}
        inputMode="numeric"
        value={limit}
        onChange={(event) => onLimitChange(event.target.value)}
        error={limitError}
      />
      {takesMessage(role) && (
        <TextareaField
          label={t('dashboard.share.message')}
          hint={t('dashboard.share.messageHint')}
          maxLength={MESSAGE_MAX_LENGTH}
          value={message}
          onChange={(event) => onMessageChange(event.target.value)}
        />
      )}
    </div>
  );
}
