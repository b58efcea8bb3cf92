import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ImportFailure } from './import-failure.js';

/** Why a connection to `address` is refused, as words that follow "<address> is", or null to allow it. */
export type AddressCheck = (address: string) => string | null;

/** The agents one import connects through: every hop of it, HTTP or HTTPS. */
export interface GuardedAgents {
  http: http.Agent;
  https: https.Agent;
  destroy(): void;
}

/**
 * Agents that connect only to addresses `check` allows. The check is made on the address the
 * connection really goes to, not on the name in the URL: a name is resolved once, its answers are
 * checked and only the allowed ones are handed to the connection (so a name that resolves to a
 * public address for a check and a private one for the connection, DNS rebinding, cannot slip
 * through), an address written in the URL is checked before connecting, and the socket's peer is
 * checked again once connected, before a byte of the request is sent. Every redirect opens its
 * connection through the same agents, so each hop is checked alike. Keep-alive is off: a socket
 * is never reused for a later hop without a new check.
 */
export function guardedAgents(check: AddressCheck): GuardedAgents {
  const plain = guard(new http.Agent({ keepAlive: false }), check);
  const secure = guard(new https.Agent({ keepAlive: false }), check);
  return {
    http: plain,
    https: secure,
    destroy() {
      plain.destroy();
      secure.destroy();
    },
  };
}

type Connect = http.Agent['createConnection'];

function guard<A extends http.Agent>(agent: A, check: AddressCheck): A {
  const connect: Connect = agent.createConnection.bind(agent);
  agent.createConnection = (options, callback) => {
    const host = options.host ?? options.hostname ?? undefined;
    if (typeof host === 'string' && isIP(host) !== 0) {
      const refusal = check(host);
      if (refusal !== null) {
        callback?.(refused(host, refusal), undefined as unknown as Duplex);
        return undefined;
      }
    }
    const socket = connect({ ...options, lookup: checkedLookup(check) } as typeof options, callback);
    if (socket !== null && socket !== undefined) checkPeerOnConnect(socket as Socket, check);
    return socket;
  };
  return agent;
}

/**
 * The last word: the peer of the connected socket. A listener put first, so it runs before the
 * request's own bytes (queued while connecting) are written.
 */
function checkPeerOnConnect(socket: Socket, check: AddressCheck): void {
  socket.prependOnceListener('connect', () => {
    const peer = socket.remoteAddress;
    const refusal = peer === undefined ? 'not known' : check(peer);
    if (refusal !== null) socket.destroy(refused(peer ?? 'the peer', refusal));
  });
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * dns.lookup, answering only the addresses `check` allows; a name none of whose addresses is
 * allowed fails naming the first one. Node asks for every address (`all`) when it tries IPv4 and
 * IPv6 in turn, and for one otherwise; both are answered.
 */
function checkedLookup(check: AddressCheck) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) {
        callback(error, options.all === true ? [] : '');
        return;
      }
      const allowed = addresses.filter((entry) => check(entry.address) === null);
      const first = addresses[0];
      if (allowed.length === 0 || first === undefined) {
        const refusal = first === undefined ? 'no address' : `${first.address}, ${check(first.address) ?? ''}`;
        callback(new ImportFailure(`${hostname} resolves to ${refusal}`, true), options.all === true ? [] : '');
        return;
      }
      if (options.all === true) callback(null, allowed);
      else callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

function refused(address: string, refusal: string): ImportFailure {
  return new ImportFailure(`${address} is ${refusal}`, true);
}
