import Foundation
import Locking
import Testing

@Suite("Locked: a value guarded by a POSIX mutex")
struct LockedTests {
  @Test("Concurrent changes from many threads are all kept")
  func exclusive() async {
    let counter = Locked((count: 0, seen: Set<Int>()))
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for step in 0..<1000 {
            counter.withLock {
              $0.count += 1
              $0.seen.insert(task * 1000 + step)
            }
          }
        }
      }
    }
    #expect(counter.withLock { $0.count } == 8000)
    #expect(counter.withLock { $0.seen.count } == 8000)
  }

  @Test("withLock returns the body's result and rethrows its typed error, releasing the lock either way")
  func resultAndErrors() {
    struct Refused: Error, Equatable {}
    let locked = Locked([1, 2, 3])
    #expect(locked.withLock { $0.reduce(0, +) } == 6)
    #expect(throws: Refused()) {
      try locked.withLock { (values: inout [Int]) throws(Refused) -> Void in
        values.append(4)
        throw Refused()
      }
    }
    // The change made before the throw stays, and the lock was released: this does not deadlock.
    #expect(locked.withLock { $0 } == [1, 2, 3, 4])
  }
}
