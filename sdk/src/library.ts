/** Sent in every message's `context.library`; a unit test keeps the version equal to package.json's. */
export const LIBRARY_NAME = '@signalbox/api';
export const LIBRARY_VERSION = '0.2.0';
