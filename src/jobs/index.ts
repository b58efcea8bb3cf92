// The background jobs (docs/background-jobs.md): the one durable queue every kind of background
// work shares, and the runner that takes its due jobs on each node.
export {
  cancelJob,
  claimDueJob,
  completeJob,
  DEFAULT_MAX_ATTEMPTS,
  enqueueJob,
  extendLease,
  failJob,
  findJob,
  jobCounts,
  type ClaimedJob,
  type Job,
  type JobRequest,
  type JobStatus,
} from './job-queue.js';
export { DEFAULT_LEASE_MS, DEFAULT_POLL_INTERVAL_MS, JobRunner, type JobContext, type JobGivenUp, type JobHandler, type JobRunnerOptions } from './job-runner.js';
export { retryDelayMs } from './retry-delay.js';
