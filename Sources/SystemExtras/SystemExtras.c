// Wrappers for system calls the Swift Glibc module does not export.
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
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

int keep_freed_memory(int mmap_threshold) {
#if defined(__GLIBC__)
  return mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1 && mallopt(M_TRIM_THRESHOLD, INT_MAX) == 1;
#else
  (void)mmap_threshold;
  return 0;
#endif
}

int set_direct_io(int descriptor, int on) {
#if defined(__linux__) && defined(O_DIRECT)
  int flags = fcntl(descriptor, F_GETFL);
  if (flags < 0) return -1;
  return fcntl(descriptor, F_SETFL, on ? (flags | O_DIRECT) : (flags & ~O_DIRECT));
#else
  (void)descriptor;
  (void)on;
  return -1;
#endif
}

static void *close_descriptor(void *argument) {
  close((int)(intptr_t)argument);
  return NULL;
}

int close_in_background(int descriptor) {
  pthread_attr_t attributes;
  pthread_t thread;
  if (pthread_attr_init(&attributes) != 0) return close(descriptor);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  int failed = pthread_create(&thread, &attributes, close_descriptor, (void *)(intptr_t)descriptor);
  pthread_attr_destroy(&attributes);
  return failed ? close(descriptor) : 0;
}
