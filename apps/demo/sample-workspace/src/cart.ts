import { applyTax } from './price.js';

export interface Line {
  readonly sku: string;
  readonly unitPrice: number;
  readonly quantity: number;
}

export function cartTotal(lines: readonly Line[]): number {
  const net = lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0);
  return applyTax(net);
}
