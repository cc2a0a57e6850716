import { Spinner } from '../../../components/ui/spinner';

/** A line in the middle of the viewer: loading, or why nothing can be shown. Clear of the previous and next buttons at its sides. */
export function ViewerMessage({ text, busy = false }: { text: string; busy?: boolean }) {
  return (
    <div
      role={busy ? 'status' : 'alert'}
      className="flex size-full flex-col items-center justify-center gap-3 px-16 py-6 text-center text-sm text-slate-300"
    >
      {busy && <Spinner className="size-7 text-slate-300" />}
      <p>{text}</p>
    </div>
  );
}
