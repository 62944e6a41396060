import Apply
import Foundation
import TestSupport
import Testing

@Suite("The apply lock")
struct ApplyLockTests {
  @Test("While held, nobody else can take it; after release they can; the lock file is private")
  func exclusive() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("state/apply.lock")
    let lock = try ApplyLock.acquire(url)
    let other = open(url.path, O_RDWR)
    defer { close(other) }
    #expect(flock(other, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
    lock.release()
    #expect(flock(other, LOCK_EX | LOCK_NB) == 0)
    var status = stat()
    stat(url.path, &status)
    #expect(status.st_mode & 0o777 == 0o600)
  }

  @Test("A lock that cannot be created is a named error")
  func unwritable() {
    #expect(throws: ApplyError.self) { try ApplyLock.acquire(URL(fileURLWithPath: "/proc/sanehosts/apply.lock")) }
  }
}
