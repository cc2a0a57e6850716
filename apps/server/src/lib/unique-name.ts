import { AppError } from './errors.ts';

const MAX_NAME_CLASHES = 10_000;

/**
 * Tries `name`, then `name (1).ext`, `name (2).ext`… until `attempt` takes one (the
 * unique index decides, so two requests never both get the same name).
 */
export async function firstFreeName(name: string, attempt: (candidate: string) => Promise<boolean>): Promise<string> {
  for (let clash = 0; clash <= MAX_NAME_CLASHES; clash += 1) {
    const candidate = clash === 0 ? name : numberedName(name, clash);
    if (await attempt(candidate)) return candidate;
  }
  throw new AppError(409, 'NAME_TAKEN', 'Too many items with this name in that folder');
}

/** `name (n).ext` for the n-th clash, keeping the extension where a person expects it. */
export function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  const hasExtension = dot > 0 && dot < name.length - 1;
  const base = hasExtension ? name.slice(0, dot) : name;
  const extension = hasExtension ? name.slice(dot) : '';
  return `${base} (${n})${extension}`;
}
