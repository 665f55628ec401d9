export { cartTotal } from './cart.js';
export { formatPrice } from './format.js';
export { applyTax } from './price.js';
