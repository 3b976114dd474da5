export { conversionValue, eventAmount, type ValueRule, type ValueWarning } from '../sdk/src/rules/conversion-value.js';
