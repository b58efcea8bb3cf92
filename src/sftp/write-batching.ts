import type { Socket } from 'node:net';

/**
 * Gathers what one turn of the event loop writes to a connection into one system call. ssh2
 * writes every SSH packet to the socket on its own: with Nagle's delay off (SFTP answers are small
 * and awaited), each was a `write` of its own, and on a download (a 32 KiB packet each) or under
 * many pipelined requests the system calls, and the client woken once per packet, were a third of
 * the server's CPU. The first write of a turn corks the socket; it is uncorked once the turn's
 * I/O callbacks and their promises have run (setImmediate), so nothing waits past the turn that
 * produced it.
 */
export function batchWritesPerTurn(socket: Socket): void {
  const write = socket.write;
  let corked = false;
  const uncork = () => {
    corked = false;
    if (!socket.destroyed) socket.uncork();
  };
  socket.write = function (this: Socket, ...args: Parameters<Socket['write']>) {
    if (!corked && !socket.destroyed) {
      corked = true;
      socket.cork();
      setImmediate(uncork);
    }
    return write.apply(this, args);
  } as Socket['write'];
}
