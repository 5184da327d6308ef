// Turns a refused admin request's `details.issues` (docs/api.md, Errors) into messages keyed by field, for inline errors.
import { ApiError } from '../api/client';

/**
 * `{'service_name': '...', 'rules.2.value': '...'}` from a validation_failed answer: the issue paths without `body.`,
 * with `[2]` written `.2` (the server writes both forms). Empty for any other error.
 */
export function fieldIssues(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const issues = error.details?.['issues'];
  if (!Array.isArray(issues)) return {};
  const byField: Record<string, string> = {};
  for (const issue of issues as { path?: unknown; message?: unknown }[]) {
    if (typeof issue.path !== 'string' || typeof issue.message !== 'string') continue;
    const field = issue.path.replace(/\[(\d+)\]/g, '.$1').replace(/^body\.?/, '');
    byField[field] ??= issue.message;
  }
  return byField;
}
