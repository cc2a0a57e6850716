/** An amount as receipts and billing history show it: two decimals and the upper-case currency ('9.99 USD'). */
export function formatAmount(amount: number, currency: string): string {
  return `${amount.toFixed(2)} ${currency.toUpperCase()}`;
}

/** A plan price in dollars per month: '$0', '$9.99' (cents only when there are any). */
export function formatPrice(price: number, language: string): string {
  return new Intl.NumberFormat(language, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: Number.isInteger(price) ? 0 : 2,
  }).format(price);
}
