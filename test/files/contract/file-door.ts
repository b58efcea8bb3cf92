import type { Capability } from '../../../src/authz/index.js';
import type { ErrorFamily } from '../../../src/errors/atrium-error.js';

/** The capabilities every door can show on an entry. */
export const FILE_CAPABILITIES = ['list', 'read', 'write', 'delete'] as const satisfies readonly Capability[];
export type FileCapability = (typeof FILE_CAPABILITIES)[number];

/**
 * A front door to file operations, as the protocol-neutral contract suite (file-contract.ts) drives
 * it: the file seam itself, the REST API, WebDAV and SFTP. An adapter says each operation in its
 * door's protocol and reads the answer back in neutral terms; what its protocol cannot say, it
 * says it cannot (`speaks`, capabilities undefined, a refusal's type undefined).
 */
export interface FileDoor {
  readonly name: string;
  readonly speaks: DoorSpeech;
  list(who: Who, path: string): Promise<DoorEntry[]>;
  stat(who: Who, path: string): Promise<DoorEntry>;
  read(who: Who, path: string): Promise<string>;
  /** A whole file, creating missing folders. */
  write(who: Who, path: string, content: string): Promise<DoorEntry>;
  createFolder(who: Who, path: string, options: { mkdirParents: boolean }): Promise<DoorEntry>;
  /** Never replaces what is at the destination. */
  move(who: Who, from: string, to: string): Promise<void>;
  /** Never replaces what is at the destination. */
  copy(who: Who, from: string, to: string): Promise<void>;
  delete(who: Who, path: string, options: { recursive: boolean }): Promise<void>;
  /**
   * The refusal an operation failed with, as far as the door can tell it. Undefined when the error
   * is no refusal (a crash, an internal error).
   */
  refusalOf(error: unknown): Refusal | undefined;
  /** Ends what the door keeps open (connections). */
  close(): Promise<void>;
}

/**
 * Where doors differ by their protocols' design, not by a rule: the contract asks each door only
 * what its protocol can ask, and checks the protocol's own answer where it has one.
 */
export interface DoorSpeech {
  /** Entries carry the caller's capabilities (REST's `permissions`); WebDAV and SFTP show none. */
  capabilities: boolean;
  /**
   * A request can work in a Workspace other than its credential's home (`Who.workspace`: the REST
   * API's Workspace header). WebDAV and SFTP serve the credential's home alone.
   */
  workspaceSelection: boolean;
  /**
   * `.` and `..` reach the server as names, which it refuses (REST, WebDAV). SFTP resolves them
   * the way POSIX paths are resolved, never above the caller's `/`.
   */
  dotSegmentsRefused: boolean;
  /**
   * A folder can be deleted on condition that it is empty (REST's `recursive=false`, SFTP's
   * RMDIR). WebDAV's DELETE always takes a folder's contents with it (RFC 4918 9.6.1).
   */
  emptyFolderDelete: boolean;
}

/** Who calls: an API key, and the Workspace the request works in (the key's home when absent). */
export interface Who {
  key: string;
  workspace?: number;
}

/** A folder or file as a door answers it. */
export interface DoorEntry {
  /** As the request's Workspace shows it. */
  path: string;
  type: 'file' | 'directory';
  size: number | null;
  /**
   * The caller's file capabilities on the entry (among list, read, write and delete, in that
   * order); undefined where a door cannot tell.
   */
  capabilities: readonly FileCapability[] | undefined;
}

export interface Refusal {
  /**
   * The families the answer may stand for: exactly one where the protocol tells them apart; more
   * where it says several with one code (SFTP v3's SSH_FX_FAILURE).
   */
  families: readonly ErrorFamily[];
  /** The exact error type, where the protocol carries it. */
  type: string | undefined;
}

/** A door whose protocol serves the credential's home alone is asked for no other Workspace. */
export function assertHomeWorkspace(door: string, who: Who): void {
  if (who.workspace !== undefined) throw new Error(`${door} cannot select a Workspace: the contract asks it only of doors that can`);
}
