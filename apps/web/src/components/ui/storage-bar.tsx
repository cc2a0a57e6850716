import { cn } from '../../lib/cn';
import { storageBarClass, storageTone } from '../../lib/storage-usage';

interface StorageBarProps {
  /** 0..100 (see usagePercent). */
  percent: number;
  /** The bar's accessible name. */
  label: string;
  /** What a screen reader announces as the value ('42% used'). */
  valueText: string;
  className?: string;
}

/** A storage quota bar: blue, yellow from 75 %, red from 90 % (docs/product.md#dashboard). */
export function StorageBar({ percent, label, valueText, className }: StorageBarProps) {
  const tone = storageTone(percent);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(percent)}
      aria-valuetext={valueText}
      data-tone={tone}
      className={cn('h-2 overflow-hidden rounded-full bg-surface-muted', className)}
    >
      <div className={cn('h-full rounded-full transition-[width] duration-500', storageBarClass[tone])} style={{ width: `${percent}%` }} />
    </div>
  );
}
