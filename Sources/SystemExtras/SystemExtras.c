// Wrappers for system calls the Swift Glibc module does not export.
#define _GNU_SOURCE
#include <fcntl.h>
#include "SystemExtras.h"

int start_writeback(int descriptor, long long offset, long long count) {
#if defined(__linux__)
  return sync_file_range(descriptor, offset, count, SYNC_FILE_RANGE_WRITE);
#else
  (void)descriptor;
  (void)offset;
  (void)count;
  return 0;
#endif
}
