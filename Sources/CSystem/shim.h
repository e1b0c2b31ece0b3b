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

/// Gives the system back the free pages inside glibc's heaps (`malloc_trim(0)`; malloc.h is not in
/// Swift's Glibc module), not only those at their tops. Nothing elsewhere.
static inline void soundset_trim_allocator(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

#endif
