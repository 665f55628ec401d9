export const TAX_RATE = 0.2;

// TODO: round to cents, not to whole units
export function applyTax(amount: number): number {
  return Math.round(amount * (1 + TAX_RATE));
}
