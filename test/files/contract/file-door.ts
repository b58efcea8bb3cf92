import type { Capability } from '../../../src/authz/index.js';

/** The capabilities every door can show on an entry. */
export const FILE_CAPABILITIES = ['list', 'read', 'write', 'delete'] as const satisfies readonly Capability[];
export type FileCapability = (typeof FILE_CAPABILITIES)[number];

/**
 * A front door to file operations, as the protocol-neutral contract suite (file-contract.ts) drives
 * it: the file seam itself, the REST API, and later WebDAV and SFTP. An adapter says each
 * operation in its door's protocol and reads the answer back in neutral terms.
 */
export interface FileDoor {
  readonly name: string;
  list(who: Who, path: string): Promise<DoorEntry[]>;
  stat(who: Who, path: string): Promise<DoorEntry>;
  read(who: Who, path: string): Promise<string>;
  /** A whole file, creating missing folders. */
  write(who: Who, path: string, content: string): Promise<DoorEntry>;
  createFolder(who: Who, path: string, options: { mkdirParents: boolean }): Promise<DoorEntry>;
  move(who: Who, from: string, to: string): Promise<void>;
  copy(who: Who, from: string, to: string): Promise<void>;
  delete(who: Who, path: string, options: { recursive: boolean }): Promise<void>;
  /**
   * The refusal an operation failed with, as far as the door can tell it: its family always, its
   * exact type when the protocol carries it. Undefined when the error is no refusal (a crash).
   */
  refusalOf(error: unknown): Refusal | undefined;
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
  family: string;
  type: string | undefined;
}
