import type { IncomingHttpHeaders } from 'node:http';
import { errors } from '../errors/catalogue.js';
import { orList, type BrandHeaders } from './brand-headers.js';

/**
 * Header names that can only be a guess at the Workspace header: `X-Workspace-Id`, or `X-<word>-
 * Workspace-Id` and `X-<word>-API-Workspace-Id` where `<word>` is one word of letters and digits
 * (the shape of a brand, so `X-ServiceAPI-Workspace-Id` and `X-Files-Workspace-Id` on a server that
 * does not accept the brand `Files`), with `WorkspaceId` or `Workspace_Id` for `Workspace-Id`.
 * Names of another shape (`X-Request-Id`, `X-Workspace-Name`, `X-Acme-Team-Workspace-Id`) are
 * never taken for it. Node gives header names in lower case, so case never matters.
 */
const WORKSPACE_ID_LIKE = /^x-(?:[a-z0-9]+-(?:api-)?)?workspace[-_]?id$/;

const accepted = new WeakMap<BrandHeaders, ReadonlySet<string>>();

/** The configured Workspace header names as Node gives them, worked out once per configuration. */
function acceptedNames(names: BrandHeaders): ReadonlySet<string> {
  let set = accepted.get(names);
  if (set === undefined) {
    set = new Set(names.workspace.map((name) => name.toLowerCase()));
    accepted.set(names, set);
  }
  return set;
}

/**
 * A request that chooses its Workspace with a header name the server does not read would
 * otherwise run in its credential's own Workspace without a word (a folder created in the wrong
 * place): it is refused with `bad-request/invalid-workspace-id-header`, whose rendering names the
 * headers that work (header-hints.ts).
 */
export function assertWorkspaceHeaderSpelling(requestHeaders: IncomingHttpHeaders, names: BrandHeaders): void {
  // Runs on every request: no list is built unless some header looks like a Workspace header.
  let misspelt: string[] | undefined;
  for (const name in requestHeaders) {
    if (WORKSPACE_ID_LIKE.test(name) && !acceptedNames(names).has(name)) (misspelt ??= []).push(name);
  }
  if (misspelt === undefined) return;
  throw errors.invalidWorkspaceIdHeader(`This server does not read the ${orList(misspelt)} header.`);
}
