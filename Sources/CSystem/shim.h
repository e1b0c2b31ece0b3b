// System calls Swift cannot make itself: Linux's renameat2 is not declared without _GNU_SOURCE (and
// syscall(2) is variadic, which Swift does not call); Darwin's renamex_np is declared, and wrapped
// so both systems share one name.
#ifndef SOUNDSET_CSYSTEM_SHIM_H
#define SOUNDSET_CSYSTEM_SHIM_H

#include <stdio.h>

#if defined(__linux__)
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/// Exchanges the directory entries `a` and `b` in one step: 0 on success, -1 with errno set
/// (ENOSYS or EINVAL where the system or the file system cannot).
static inline int soundset_exchange(const char *a, const char *b) {
#if defined(__linux__) && defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 2 /* RENAME_EXCHANGE */);
#elif defined(__APPLE__)
    return renamex_np(a, b, RENAME_SWAP);
#else
    return -1;
#endif
}

#if defined(__GLIBC__)
#include <malloc.h>
#endif

/// glibc's allocator limits (malloc.h is not in Swift's Glibc module): blocks of `mmap_threshold`
/// bytes and up get a mapping of their own (a fixed threshold, not the one glibc raises after each
/// free), at most `arena_max` arenas; 0 leaves one as it is. Nothing elsewhere.
static inline void soundset_limit_allocator(int mmap_threshold, int arena_max) {
#if defined(__GLIBC__)
    if (mmap_threshold > 0) mallopt(M_MMAP_THRESHOLD, mmap_threshold);
    if (arena_max > 0) mallopt(M_ARENA_MAX, arena_max);
#else
    (void)mmap_threshold;
    (void)arena_max;
#endif
}

#endif
