import type { HistoryAction, HistoryEvent } from '../history/index.js';
import type { Automation } from '../repositories/automations.js';

// The History records of automation changes (docs/history.md): each belongs to the automation's
// Workspace, so that Workspace's administrators read it. A webhook URL's secret is never recorded.

/** The fields as History keeps them: Files.com's names, lists as they are. */
function automationRecord(automation: Automation): Record<string, unknown> {
  return { workspace_id: automation.workspaceId, ...automation.settings };
}

const label = (automation: Automation) => (automation.settings.name === '' ? `#${automation.id}` : automation.settings.name);

export function automationCreated(automation: Automation): HistoryEvent {
  return automationEvent('automation_create', automation, `Created automation ${label(automation)}`, { id: automation.id, ...automationRecord(automation) });
}

export function automationDeleted(automation: Automation): HistoryEvent {
  return automationEvent('automation_destroy', automation, `Deleted automation ${label(automation)}`, { id: automation.id, ...automationRecord(automation) });
}

/** A change: the fields before and after; a new webhook secret only as the word. */
export function automationUpdated(before: Automation, after: Automation): HistoryEvent {
  const was = automationRecord(before);
  const is = automationRecord(after);
  const names = Object.keys(is).filter((name) => JSON.stringify(was[name]) !== JSON.stringify(is[name]));
  const secretChanged = before.webhookSecretHash !== after.webhookSecretHash && after.webhookSecretHash !== null;
  const changed = [...names, ...(secretChanged ? ['webhook_url'] : [])];
  return automationEvent('automation_update', after, `Changed automation ${label(after)}: ${changed.join(', ')}`, {
    id: after.id, name: after.settings.name, changed,
    before: Object.fromEntries(names.map((name) => [name, was[name]])),
    after: Object.fromEntries(names.map((name) => [name, is[name]])),
  });
}

function automationEvent(action: HistoryAction, automation: Automation, display: string, targets: Record<string, unknown>): HistoryEvent {
  return { action, workspaceId: automation.workspaceId, display, targets };
}
