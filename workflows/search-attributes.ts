import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Keyword attributes that let operators find a workspace's conversions by status in the Temporal UI. */
export const WorkspaceIdAttribute = defineSearchAttributeKey('SignalboxWorkspaceId', SearchAttributeType.KEYWORD);
export const ConversionStatusAttribute = defineSearchAttributeKey('SignalboxConversionStatus', SearchAttributeType.KEYWORD);
export const TikTokEventAttribute = defineSearchAttributeKey('SignalboxTikTokEvent', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTES = [WorkspaceIdAttribute, ConversionStatusAttribute, TikTokEventAttribute] as const;
