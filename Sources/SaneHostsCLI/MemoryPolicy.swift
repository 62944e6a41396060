import SystemExtras

/// How the process's allocator treats large blocks, set once at start.
enum MemoryPolicy {
  /// Keeps freed memory for reuse instead of handing it back to the system: blocks up to 32 MiB come
  /// from the heap rather than a fresh mapping each, and the heap is never trimmed. Returns whether the
  /// allocator took it (glibc does).
  ///
  /// An update compiles each source's copy alone, allocating and freeing tens of MB per source; with
  /// glibc's defaults each of those came back as fresh pages, and the page faults were a sixth of the
  /// update's CPU time (half the faults with this, and a faster large update for a higher peak: see
  /// docs/performance.md, "Updating a profile"). Only `update`
  /// sets it: a compile gained nothing and peaked 20 MB higher, and `serve` runs for days and must give
  /// memory back after a large job.
  @discardableResult
  static func keepFreedMemory() -> Bool { keep_freed_memory(32 << 20) == 1 }
}
