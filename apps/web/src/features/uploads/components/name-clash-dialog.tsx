import { CopyPlus } from 'lucide-react';
import { useId, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { clashPrompt, type PendingClash } from '../name-clash-prompt';
import type { ClashChoice } from '../name-clashes';

/**
 * The clash dialog of whichever upload or move asks now (name-clash-prompt.ts). Lives in the
 * signed-in layout beside the upload panel, so a batch can ask from any page.
 */
export function NameClashHost() {
  const question = useSyncExternalStore(clashPrompt.subscribe, clashPrompt.current, clashPrompt.current);
  // A fresh dialog per question: the checkbox starts unticked and focus moves to it again.
  return question ? (
    <NameClashDialog key={`${question.clash.folderName}/${question.clash.name}/${question.left}`} question={question} />
  ) : null;
}

/**
 * '“report.pdf” already exists in “Docs”': Replace (files only), Keep both or Skip, and for a
 * batch 'Apply to all N conflicts'. Closing it skips this one.
 */
export function NameClashDialog({ question }: { question: PendingClash }) {
  const { t } = useTranslation();
  const { clash, left } = question;
  const [applyToAll, setApplyToAll] = useState(false);
  const keepBothRef = useRef<HTMLButtonElement>(null);
  const checkboxId = useId();
  const choose = (choice: ClashChoice) => question.answer({ choice, applyToAll });

  return (
    <Modal
      open
      onClose={() => question.answer({ choice: 'skip', applyToAll: false })}
      title={t('uploads.clash.title', { name: clash.name, folder: clash.folderName })}
      description={clash.canReplace ? t('uploads.clash.description') : t('uploads.clash.descriptionFolder')}
      initialFocusRef={keepBothRef}
      icon={
        <span className="grid size-10 place-items-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-300">
          <CopyPlus aria-hidden="true" className="size-5" />
        </span>
      }
      footer={
        <>
          <Button variant="secondary" onClick={() => choose('skip')}>
            {t('uploads.clash.skip')}
          </Button>
          <Button ref={keepBothRef} variant={clash.canReplace ? 'secondary' : 'primary'} onClick={() => choose('keep-both')}>
            {t('uploads.clash.keepBoth')}
          </Button>
          {clash.canReplace && <Button onClick={() => choose('replace')}>{t('uploads.clash.replace')}</Button>}
        </>
      }
    >
      {left > 1 && (
        <label htmlFor={checkboxId} className="flex items-center gap-3 text-sm font-medium text-ink">
          <input
            id={checkboxId}
            type="checkbox"
            checked={applyToAll}
            onChange={(event) => setApplyToAll(event.target.checked)}
            className="focus-ring size-4 shrink-0 rounded-sm accent-brand-600"
          />
          {t('uploads.clash.applyToAll', { count: left })}
        </label>
      )}
    </Modal>
  );
}
