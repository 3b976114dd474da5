export { advertiserLocale, type AdvertiserLocale } from './advertiser-info';
export {
  DEFAULT_PULL_RETRY,
  pullAdvertiserLocale,
  pullEntities,
  pullReportRange,
  QUERY_TOO_LARGE,
  TikTokCallFailed,
  type AdStatsPullContext,
  type EntityPullResult,
  type PullProgress,
  type PullRetryPolicy,
  type ReportPullResult,
} from './pull';
export { FIGURE_METRICS, LEVELS, metricsFor, parseReportRows, ReportRowError } from './report-rows';
