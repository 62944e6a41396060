// System calls the Swift Glibc module does not export.
#pragma once
#include <sys/types.h>
#if defined(__linux__) || defined(__APPLE__)
#include <sys/xattr.h>
#endif

/// Starts writing a file's dirty pages in [offset, offset + count) to disk without waiting for them
/// (`sync_file_range` with `SYNC_FILE_RANGE_WRITE` on Linux; nothing elsewhere). Returns 0, or -1 and errno.
int start_writeback(int descriptor, long long offset, long long count);

/// Makes the C allocator (glibc) serve blocks up to `mmap_threshold` bytes from its heap instead of a
/// fresh mapping each, and never trim the heap, so freed memory is reused rather than handed back and
/// faulted in again. Returns 1 when set, 0 where it cannot be (another C library).
int keep_freed_memory(int mmap_threshold);

/// Turns direct I/O (`O_DIRECT`: writes bypass the page cache) on or off for an open file. Returns 0,
/// or -1 and errno (a file system without it, or a system without `O_DIRECT`).
int set_direct_io(int descriptor, int on);

/// Asks the processor to bring the cache line holding `address` close, for writing, without waiting
/// for it (a hint: it never faults, whatever the address).
static inline void prefetch_for_write(const void *address) { __builtin_prefetch(address, 1, 3); }

/// Asks the processor to bring the cache line holding `address` close, for reading, without waiting.
static inline void prefetch_for_read(const void *address) { __builtin_prefetch(address, 0, 3); }

/// Closes a descriptor on a thread of its own, without waiting: for the last descriptor of a large
/// file that was just replaced, whose blocks the file system frees on that close (22–26 ms for 161 MB
/// here). The process still waits for that thread before it ends. Returns 0, or the result of closing
/// it at once when no thread could be started.
int close_in_background(int descriptor);
