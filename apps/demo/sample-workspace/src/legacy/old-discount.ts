// Legacy discount rules, kept until the new discount module lands.
export function oldDiscount(amount: number): number {
  return amount > 100 ? amount - 5 : amount;
}
