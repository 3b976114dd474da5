import type { ActivityDeps } from './deps';
import { loadConversion } from './load';
import type { PrepareResult } from './types';

/** Step 1: a finished conversion stays finished (safe re-runs); a removed rule or missing connection is a skip. */
export async function prepareConversion(deps: ActivityDeps, conversionId: string): Promise<PrepareResult> {
  const conversion = await loadConversion(deps, conversionId);
  if (conversion.status !== 'pending') return { state: 'finished', status: conversion.status, reason: conversion.reason };
  const rule = await deps.repos.conversionRules.find(conversion.workspace_id, conversion.source_event);
  if (rule === undefined) return { state: 'skip', reason: 'conversion_rule_removed' };
  const connection = await deps.repos.tiktokConnections.summary(conversion.workspace_id);
  if (connection === undefined) return { state: 'skip', reason: 'tiktok_not_connected' };
  if (connection.status === 'reauthorization_required') return { state: 'skip', reason: 'tiktok_reauthorization_required' };
  return { state: 'ready' };
}
