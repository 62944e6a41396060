// System calls the Swift Glibc module does not export.
#pragma once
#include <sys/types.h>
#if defined(__linux__) || defined(__APPLE__)
#include <sys/xattr.h>
#endif

/// Starts writing a file's dirty pages in [offset, offset + count) to disk without waiting for them
/// (`sync_file_range` with `SYNC_FILE_RANGE_WRITE` on Linux; nothing elsewhere). Returns 0, or -1 and errno.
int start_writeback(int descriptor, long long offset, long long count);
