export { meaningfulIdentifier } from '../sdk/src/rules/identifiers.js';
