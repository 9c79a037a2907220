interface Lock {
  abort: () => void;
  done: Promise<void>;
}

/**
 * One request at a time per upload (PATCH, DELETE, a completing HEAD). A newer request
 * takes over from an older one still hanging on a dead connection: it asks the holder to
 * stop (`abort` of the holder), then waits until the holder has finished writing.
 */
export class UploadLocks {
  private readonly locks = new Map<string, Lock>();

  has(id: string): boolean {
    return this.locks.has(id);
  }

  async take(id: string, abort: () => void, takeOver = true): Promise<() => void> {
    for (let held = this.locks.get(id); held; held = this.locks.get(id)) {
      if (takeOver) held.abort();
      await held.done;
    }
    let done!: () => void;
    const lock: Lock = { abort, done: new Promise((resolve) => (done = resolve)) };
    this.locks.set(id, lock);
    return () => {
      if (this.locks.get(id) === lock) this.locks.delete(id);
      done();
    };
  }
}
