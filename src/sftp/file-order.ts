/**
 * SFTP's ordering rule (draft-ietf-secsh-filexfer-02, on outstanding requests): a server may work
 * on several requests at once, but requests relating to the same file must give the results they
 * would have given one at a time, in the order received. Clients count on it: sshfs sends LSTAT of
 * a file right behind the OPEN that creates it, and two READDIRs on one folder handle before the
 * first is answered; each must see what the one before it did.
 *
 * Each request names the files it concerns (by their site path key; a handle by its file's) and
 * runs once every earlier request naming any of them has finished. Requests on different files
 * still run at once.
 */
export class FileOrder {
  /** The last request registered on each file: the next one on that file waits for it. */
  private readonly last = new Map<string, Promise<void>>();

  /**
   * Runs `work` after every earlier request on any of `files`. Callers register requests in the
   * order they arrived (this call is synchronous up to its first wait), which is what makes the
   * order the client's.
   */
  run<T>(files: readonly string[], work: () => Promise<T>): Promise<T> {
    const earlier = [...new Set(files)].flatMap((file) => this.last.get(file) ?? []);
    const result = earlier.length === 0 ? work() : Promise.all(earlier).then(work);
    const settled = result.then(() => undefined, () => undefined);
    for (const file of files) this.last.set(file, settled);
    void settled.then(() => {
      for (const file of files) if (this.last.get(file) === settled) this.last.delete(file);
    });
    return result;
  }

  /** Resolves once every request registered so far on `file` has finished. */
  idle(file: string): Promise<void> {
    return this.last.get(file) ?? Promise.resolve();
  }
}
