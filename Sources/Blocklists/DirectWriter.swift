import Files
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes whole buffers to a file opened for direct I/O on a thread of its own, one buffer at a time,
/// while the caller fills the next (see `ByteSink`).
///
/// A direct write blocks until the disk has the bytes: 8 MiB took 3–5 ms here, and the 161 MB output of
/// 5M names spent 64 ms in them. Written by the task that renders, they held one of the two threads
/// that the other rendering tasks need; on this thread, rendering goes on meanwhile. Writes are
/// positional (`pwrite`), so they never depend on the file offset.
final class DirectWriter: @unchecked Sendable {
  /// A buffer to write: `count` bytes at `buffer`, to the file's `offset`.
  private struct Job {
    var buffer: UnsafeMutableRawPointer
    var count: Int
    var offset: Int
  }

  private let descriptor: Int32
  private let condition = NSCondition()
  /// Guarded by `condition`: the job handed over and not yet taken.
  private var job: Job?
  /// Guarded by `condition`: a job is handed over or being written.
  private var busy = false
  /// Guarded by `condition`: the `errno` of the first failed write, 0 while none failed.
  private var failure: Int32 = 0
  /// Guarded by `condition`: the thread is to end once idle.
  private var stopping = false
  /// Guarded by `condition`: the thread has ended.
  private var ended = false
  /// Guarded by `condition`: the file system took the direct I/O flag but refused a write (`EINVAL`); that
  /// write and the rest went through the page cache.
  private var refusedDirect = false

  /// Starts the writing thread for `descriptor`.
  init(descriptor: Int32) {
    self.descriptor = descriptor
    let thread = Thread { [self] in run() }
    thread.name = "sanehosts-direct-writer"
    thread.start()
  }

  /// Waits for the write in flight to end, then hands over `count` bytes at `buffer`, to be written at
  /// `offset`; the caller must not touch them until the next `submit` or `wait` returns. Returns the
  /// `errno` of an earlier failed write (nothing is then handed over), or 0.
  func submit(_ buffer: UnsafeMutableRawPointer, count: Int, offset: Int) -> Int32 {
    condition.lock()
    defer { condition.unlock() }
    while busy { condition.wait() }
    if failure != 0 { return failure }
    job = Job(buffer: buffer, count: count, offset: offset)
    busy = true
    condition.broadcast()
    return 0
  }

  /// Waits for the write in flight to end; returns the `errno` of the first failed write, or 0.
  func wait() -> Int32 {
    condition.lock()
    defer { condition.unlock() }
    while busy { condition.wait() }
    return failure
  }

  /// Whether a write fell back to the page cache (`EINVAL` under direct I/O).
  var fellBack: Bool {
    condition.lock()
    defer { condition.unlock() }
    return refusedDirect
  }

  /// Waits for the write in flight, then ends the thread and waits for it to end.
  func stop() {
    condition.lock()
    defer { condition.unlock() }
    while busy { condition.wait() }
    stopping = true
    condition.broadcast()
    while !ended { condition.wait() }
  }

  private func run() {
    condition.lock()
    while true {
      while job == nil && !stopping { condition.wait() }
      guard let next = job else { break }
      job = nil
      condition.unlock()
      var error = Self.write(next, to: descriptor)
      var refused = false
      if error == EINVAL && StagedFile.setDirectIO(descriptor, false) {
        // Taken but refused: the same bytes again, through the page cache, and so on for the rest.
        refused = true
        error = Self.write(next, to: descriptor)
      }
      condition.lock()
      if refused { refusedDirect = true }
      if error != 0 && failure == 0 { failure = error }
      busy = false
      condition.broadcast()
    }
    ended = true
    condition.broadcast()
    condition.unlock()
  }

  /// Writes a job's bytes at its offset; returns 0, or the `errno` of the failure.
  private static func write(_ job: Job, to descriptor: Int32) -> Int32 {
    var done = 0
    while done < job.count {
      let written = pwrite(descriptor, job.buffer + done, job.count - done, off_t(job.offset + done))
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      if written == 0 { return EIO }
      done += written
    }
    return 0
  }
}
