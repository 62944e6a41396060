import Foundation
import Locking
import Store
import TestSupport
import Testing

/// What a thread waiting for the lock saw.
private final class Waiter: Sendable {
  let acquired = Locked<Bool>(false)
  let failure = Locked<String?>(nil)
}

@Suite("The update lock")
struct UpdateLockTests {
  func directory(_ temp: TemporaryDirectory) throws -> DataDirectory {
    let directory = DataDirectory(url: temp.url)
    try directory.create()
    return directory
  }

  @Test("The lock file records the holder's process id")
  func recordsPID() throws {
    let temp = try TemporaryDirectory()
    defer { temp.remove() }
    let directory = try directory(temp)
    let lock = try UpdateLock.acquire(directory)
    withExtendedLifetime(lock) {
      let text = (try? String(contentsOf: directory.updateLock, encoding: .utf8)) ?? ""
      #expect(text == "\(getpid())\n")
    }
  }

  @Test("A second acquire while held throws updateRunning with the holder's pid and the lock file")
  func secondAcquireThrows() throws {
    let temp = try TemporaryDirectory()
    defer { temp.remove() }
    let directory = try directory(temp)
    let lock = try UpdateLock.acquire(directory)
    #expect(throws: StoreError.updateRunning(pid: getpid(), lockFile: directory.updateLock.path)) {
      try UpdateLock.acquire(directory)
    }
    withExtendedLifetime(lock) {}
  }

  @Test("The lock is released when the holder is deallocated")
  func releasedOnDeinit() throws {
    let temp = try TemporaryDirectory()
    defer { temp.remove() }
    let directory = try directory(temp)
    var lock: UpdateLock? = try UpdateLock.acquire(directory)
    #expect(throws: StoreError.self) { try UpdateLock.acquire(directory) }
    withExtendedLifetime(lock) {}
    lock = nil
    let again = try UpdateLock.acquire(directory)
    #expect(throws: StoreError.self, "the new holder has it now") { try UpdateLock.acquire(directory) }
    withExtendedLifetime(again) {}
  }

  @Test("Locks on different data directories are independent")
  func independentDirectories() throws {
    let first = try TemporaryDirectory()
    let second = try TemporaryDirectory()
    defer {
      first.remove()
      second.remove()
    }
    let a = try UpdateLock.acquire(try directory(first))
    let b = try UpdateLock.acquire(try directory(second))
    withExtendedLifetime((a, b)) {}
  }

  @Test("With wait, acquire blocks until the holder lets go")
  func waits() async throws {
    let temp = try TemporaryDirectory()
    defer { temp.remove() }
    let directory = try directory(temp)
    var holder: UpdateLock? = try UpdateLock.acquire(directory)

    // Waiting blocks a thread, so it gets one of its own rather than one of the shared task threads.
    let waiter = Waiter()
    Thread {
      do {
        let lock = try UpdateLock.acquire(directory, wait: true)
        waiter.acquired.withLock { $0 = true }
        withExtendedLifetime(lock) {}
      } catch {
        waiter.failure.withLock { $0 = "\(error)" }
      }
    }.start()

    try await Task.sleep(for: .milliseconds(300))
    #expect(waiter.acquired.withLock { $0 } == false, "the waiter must still be blocked while the lock is held")
    withExtendedLifetime(holder) {}
    holder = nil
    #expect(await eventually(within: 10) { waiter.acquired.withLock { $0 } })
    #expect(waiter.failure.withLock { $0 } == nil)
  }

  @Test("A data directory that does not exist cannot be locked, and the error names the lock file")
  func missingDirectory() throws {
    let temp = try TemporaryDirectory()
    defer { temp.remove() }
    let directory = DataDirectory(url: temp.file("absent"))
    let error = #expect(throws: StoreError.self) { try UpdateLock.acquire(directory) }
    guard case .cannotOpen(let path, let detail) = error else {
      Issue.record("expected cannotOpen, got \(String(describing: error))")
      return
    }
    #expect(path == directory.updateLock.path)
    #expect(detail.contains("No such file"), "\(detail)")
  }
}
