/** Grid view: 2 to 6 columns by the width of the file area (docs/product.md#dashboard). */
export function columnsForWidth(width: number): number {
  if (width < 460) return 2;
  if (width < 680) return 3;
  if (width < 900) return 4;
  if (width < 1100) return 5;
  return 6;
}
