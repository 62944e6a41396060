#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value that one thread at a time may read or change, guarded by a POSIX mutex.
///
/// It has the shape of the standard library's `Mutex` (`withLock` with `inout sending` access), and is
/// used instead of it for one reason: ThreadSanitizer. On Linux, `Synchronization.Mutex` locks through
/// futex calls inside the uninstrumented Swift runtime, so ThreadSanitizer never sees the lock and
/// reports every access it guards as a data race (a 15-line program shows it). A pthread mutex is
/// intercepted by ThreadSanitizer, so a run of the suite under `-sanitize=thread` reports only real
/// races. The mutex is not recursive: calling `withLock` again from inside `body` deadlocks, as with
/// `Mutex`.
public final class Locked<Value: ~Copyable>: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  /// Creates a lock holding `initialValue`.
  public init(_ initialValue: consuming sending Value) {
    mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    // Priority inheritance, as `Mutex` has on Linux (FUTEX_LOCK_PI): an unlock hands the lock to a
    // waiter, so a thread that locks again at once cannot starve the others.
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_setprotocol(&attributes, Int32(PTHREAD_PRIO_INHERIT))
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
    value = initialValue
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value and returns what it returns.
  public func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
