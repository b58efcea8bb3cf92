/**
 * Which front door a request came through and from which address: what History records as the
 * `interface` and `ip` of an action. The values are Files.com's (`restapi`, `web`, `scim`, `dav`,
 * `sftp`), plus `cli` for the administration command and `automation` for an automation's run,
 * which Files.com does not have (docs/history.md).
 */
export type Interface = 'restapi' | 'web' | 'scim' | 'dav' | 'sftp' | 'cli' | 'automation';

/** The automation whose run acts (docs/automations.md#runs). */
export interface AutomationActor {
  readonly id: number;
  /** Its name as the run began: History keeps it, since the automation may be renamed or deleted. */
  readonly name: string;
  /**
   * How many automations led to this run: 1 for a run queued by a person, a schedule or a webhook,
   * one more for each run whose file action triggered the next. Bounds chains and loops.
   */
  readonly depth: number;
}

export interface Origin {
  readonly interface: Interface;
  /** The client's address (Fastify's request.ip, which honours ATRIUM_TRUST_PROXY); null for the command line. */
  readonly ip: string | null;
  /** Set when an automation's run acts (interface `automation`). */
  readonly automation?: AutomationActor;
  /** Set when a visitor acts through a share link (interface `web`): History names the link in `targets.bundle`. */
  readonly bundle?: ShareLinkActor;
}

/** The share link a visitor acts through (docs/sharing.md#visiting-a-link), and the visitor's registration if any. */
export interface ShareLinkActor {
  readonly id: number;
  readonly code: string;
  readonly registrationId: number | null;
}
