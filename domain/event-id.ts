export { deriveEventId } from '../sdk/src/rules/event-id.js';
