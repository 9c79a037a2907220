import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findExecutable } from '../../src/platform/run.ts';

/**
 * A file system without POSIX locks, as a network share mounted without them answers: a small
 * library, loaded into the server's process with LD_PRELOAD, that makes every lock call
 * (fcntl F_SETLK, F_SETLKW, F_GETLK and their OFD forms) on files whose path contains
 * `HEARTH_TEST_NO_LOCKS` fail with EOPNOTSUPP, the way such a share does. Everything else goes
 * to the C library as usual. Built here with the C compiler, since no such share can be
 * mounted on a test machine without a server for it.
 */
const SOURCE = String.raw`
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int refused(int fd, int cmd) {
  if (cmd != F_SETLK && cmd != F_SETLKW && cmd != F_GETLK && cmd != F_OFD_SETLK && cmd != F_OFD_SETLKW && cmd != F_OFD_GETLK) return 0;
  const char *part = getenv("HEARTH_TEST_NO_LOCKS");
  if (part == NULL || *part == 0) return 0;
  char link[64], target[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, target, sizeof target - 1);
  if (n < 0) return 0;
  target[n] = 0;
  return strstr(target, part) != NULL;
}

static int forward(const char *name, int fd, int cmd, void *arg) {
  int (*real)(int, int, ...) = (int (*)(int, int, ...))dlsym(RTLD_NEXT, name);
  return real(fd, cmd, arg);
}

int fcntl(int fd, int cmd, ...) {
  va_list ap; va_start(ap, cmd); void *arg = va_arg(ap, void *); va_end(ap);
  if (refused(fd, cmd)) { errno = EOPNOTSUPP; return -1; }
  return forward("fcntl", fd, cmd, arg);
}

int fcntl64(int fd, int cmd, ...) {
  va_list ap; va_start(ap, cmd); void *arg = va_arg(ap, void *); va_end(ap);
  if (refused(fd, cmd)) { errno = EOPNOTSUPP; return -1; }
  return forward("fcntl64", fd, cmd, arg);
}
`;

/** Why the library cannot be made here, or null. */
export function noLocksUnsupportedReason(): string | null {
  if (process.platform !== 'linux') return `LD_PRELOAD needs Linux (this is ${process.platform})`;
  return findExecutable('cc') ? null : 'a C compiler (cc) is not installed (Debian: sudo apt install gcc)';
}

/** Builds the library into `dir`; answers its path, for LD_PRELOAD. */
export function buildNoLocksLibrary(dir: string): string {
  const source = path.join(dir, 'no-locks.c');
  const library = path.join(dir, 'no-locks.so');
  fs.writeFileSync(source, SOURCE);
  execFileSync('cc', ['-shared', '-fPIC', '-O2', '-o', library, source, '-ldl'], { stdio: 'pipe', timeout: 60_000 });
  return library;
}
