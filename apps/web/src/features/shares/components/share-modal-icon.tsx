import { Share2 } from 'lucide-react';

/** The badge at the top of the share dialogs. */
export function ShareModalIcon() {
  return (
    <span className="grid size-10 place-items-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-300">
      <Share2 aria-hidden="true" className="size-5" />
    </span>
  );
}
