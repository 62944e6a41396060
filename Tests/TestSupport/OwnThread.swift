import Foundation

/// Runs blocking work (reading a pipe to its end, waiting for a process) on a thread of its own and
/// returns its result.
///
/// Swift's tasks on Linux run on Dispatch's global worker threads, about one a core, and
/// `DispatchQueue.global()` hands its work to the same threads: a blocking read there holds a worker
/// the other tests' tasks need. With several command-line tests running children at once, both workers
/// of this 2-core machine were held for seconds, and unrelated tests ran out of their time limits.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: body()) }.start()
  }
}
