import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { Modal } from '../../../components/ui/modal';
import { TextareaField } from '../../../components/ui/textarea-field';
import { serverErrorMessage } from '../../../lib/api-client';
import { notify, type MessageKey, type NotifyOptions } from '../../../lib/notify';

/** The server keeps at most this much of a reason (AdminReason). */
const REASON_MAX_LENGTH = 500;

export interface ActionDialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  tone?: 'primary' | 'danger';
  icon?: ReactNode;
  /** Suspensions, plans and deletions must say why (the audit log keeps it); mails may. */
  reason: 'required' | 'optional';
  /** Fields of the action itself, above the reason. */
  children?: ReactNode;
  /** Checks those fields (they show their own errors); false stops the submission. */
  validate?: () => boolean;
  /** Runs the action; rejects with the server's error. */
  onConfirm: (reason: string) => Promise<unknown>;
  /** The toast after it succeeded: a key, translated when it shows. */
  success: { key: MessageKey; values?: NotifyOptions['values'] };
  busy: boolean;
}

/**
 * Every operator action asks first: what it does, why (kept in the audit log), and a
 * confirmation. A refusal shows its reason, in the user's language, in the dialog and as a toast.
 */
export function ActionDialog({
  open,
  onClose,
  title,
  description,
  confirmLabel,
  tone = 'primary',
  icon,
  reason: reasonRule,
  children,
  validate,
  onConfirm,
  success,
  busy,
}: ActionDialogProps) {
  const { t } = useTranslation();
  const formId = useId();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [serverError, setServerError] = useState<string | null>(null);

  const close = () => {
    setReason('');
    setReasonError(undefined);
    setServerError(null);
    onClose();
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const fieldsValid = validate ? validate() : true;
    const missingReason = reasonRule === 'required' && !reason.trim();
    setReasonError(missingReason ? t('admin.actions.reasonRequired') : undefined);
    if (!fieldsValid || missingReason) return;
    setServerError(null);
    try {
      await onConfirm(reason.trim());
      notify.success(success.key, { values: success.values });
      close();
    } catch (error) {
      setServerError(serverErrorMessage(error) ?? t('admin.actions.failed'));
      notify.error('admin.actions.failed', { error });
    }
  };

  return (
    <Modal
      open={open}
      onClose={close}
      busy={busy}
      title={title}
      description={description}
      icon={icon}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={busy}>
            {t('ui.cancel')}
          </Button>
          <Button type="submit" form={formId} variant={tone} loading={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        {serverError && <FormAlert>{serverError}</FormAlert>}
        {children}
        <TextareaField
          label={t(reasonRule === 'required' ? 'admin.actions.reason' : 'admin.actions.reasonOptional')}
          hint={t('admin.actions.reasonHint')}
          name="reason"
          maxLength={REASON_MAX_LENGTH}
          value={reason}
          onChange={(event) => {
            setReason(event.target.value);
            setReasonError(undefined);
          }}
          error={reasonError}
        />
      </form>
    </Modal>
  );
}
