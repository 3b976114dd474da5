import { isSafeNumber, parse as parseLossless } from 'lossless-json';
import { findJsonSyntaxError } from '../json-syntax';

export type WebhookJson = { ok: true; body: unknown } | { ok: false; problem: string };

/**
 * A webhook's JSON body, with every integer too large for a JavaScript number kept as its digits (a string): Shopify's
 * IDs reach 18 digits in its own examples (order 820982911946154508), which `JSON.parse` would round.
 */
export function parseWebhookJson(text: string): WebhookJson {
  try {
    return { ok: true, body: parseLossless(text, undefined, (value) => (isSafeNumber(value) ? Number(value) : value)) };
  } catch (error) {
    const syntax = findJsonSyntaxError(text);
    if (syntax !== undefined) return { ok: false, problem: `body is not valid JSON: ${syntax.reason} (line ${syntax.line}, column ${syntax.column})` };
    return { ok: false, problem: `body is not valid JSON: ${(error as Error).message}` };
  }
}

type Json = Record<string, unknown>;

export function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

/** A non-empty string, or a number (an ID or amount) as its text. */
export function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
