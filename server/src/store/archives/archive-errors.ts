/** An encrypted archive opened without the key that opens it, or with another one; or a signed one read without the kit. */
export class ArchiveKeyProblem extends Error {
  constructor(readonly reason: 'required' | 'wrong') {
    super(`backup key ${reason}`);
  }
}

/** A file of an encrypted archive that does not decrypt: changed or cut on the destination. */
export class ArchiveFileDamaged extends Error {
  constructor(cause: unknown) {
    super(`backup file does not decrypt: ${(cause as Error).message}`, { cause });
  }
}

/** The file being copied in could not be read (a library's drive): not the destination's fault. */
export class SourceUnreadable extends Error {
  constructor(cause: unknown) {
    super(`cannot read the file to back up: ${(cause as Error).message}`, { cause });
  }
}

/**
 * A snapshot whose manifest this server cannot prove it made (backup-manifest.ts: `unproved`,
 * or `unsigned` where that was not accepted): it is never used.
 */
export class SnapshotUnproved extends Error {
  constructor(
    readonly snapshot: string,
    readonly unsigned: boolean,
  ) {
    super(`snapshot ${snapshot} is ${unsigned ? 'not signed (an earlier format)' : 'not signed with this backup key'}`);
  }
}
