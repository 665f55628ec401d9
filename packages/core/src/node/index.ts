export { resolveLinks, SYMBOLIC_LINK_LIMIT } from './resolve-links.js';
