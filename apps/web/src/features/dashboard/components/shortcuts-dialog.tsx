import { Keyboard } from 'lucide-react';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { shortcutLines } from '../page-shortcuts';

/** Cmd on a Mac, Ctrl elsewhere, as the keys are labelled. */
const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** 'Keyboard shortcuts' ("?"): every key of the file manager and what it does. */
export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const keyName = (key: string) =>
    key === 'Click' ? t('dashboard.shortcuts.click') : key === 'Space' ? t('dashboard.shortcuts.space') : key;
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('dashboard.shortcuts.title')}
      description={t('dashboard.shortcuts.description')}
      icon={
        <span className="grid size-10 place-items-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-300">
          <Keyboard aria-hidden="true" className="size-5" />
        </span>
      }
      footer={<Button onClick={onClose}>{t('ui.close')}</Button>}
    >
      <dl className="divide-y divide-line">
        {shortcutLines(isMac() ? '⌘' : 'Ctrl').map((line) => (
          <div key={line.id} className="flex items-center justify-between gap-4 py-2">
            <dt className="text-sm text-ink">{t(`dashboard.shortcuts.items.${line.id}` as 'dashboard.shortcuts.items.move')}</dt>
            <dd className="flex shrink-0 flex-wrap items-center justify-end gap-1 text-xs text-ink-muted">
              {line.keys.map((combo, index) => (
                <Fragment key={combo.join('+')}>
                  {index > 0 && <span className="px-0.5">{line.id === 'move' ? '' : t('dashboard.shortcuts.or')}</span>}
                  {combo.map((key, keyIndex) => (
                    <Fragment key={key}>
                      {keyIndex > 0 && <span aria-hidden="true">+</span>}
                      <kbd className="rounded-md border border-line-strong bg-surface-muted px-1.5 py-0.5 font-sans font-medium text-ink">
                        {keyName(key)}
                      </kbd>
                    </Fragment>
                  ))}
                </Fragment>
              ))}
            </dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
