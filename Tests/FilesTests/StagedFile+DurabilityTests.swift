import Foundation
import TestSupport
import Testing

@testable import Files

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Deferred durability: many files written, flushed once")
struct StagedFileDurabilityTests {
  @Test("A deferred commit replaces the file like an immediate one, keeps its mode and leaves no temporary file")
  func deferredCommit() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("copy.list").path
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
    #expect(chmod(path, 0o600) == 0)
    let file = try StagedFile(replacing: path)
    try Array("new\n".utf8).withUnsafeBytes { try file.append($0) }
    try file.commit(durability: .deferred)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    var status = stat()
    #expect(stat(path, &status) == 0)
    #expect(status.st_mode & 0o7777 == 0o600)
    #expect(directory.contents() == ["copy.list"])
  }

  @Test("flush(_:) flushes files in several directories, each directory once")
  func flushMany() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try FileManager.default.createDirectory(at: directory.file("lists"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: directory.file("profiles"), withIntermediateDirectories: true)
    var paths: [String] = []
    for name in ["lists/a", "lists/b", "profiles/c"] {
      let file = try StagedFile(replacing: directory.file(name).path)
      try Array(name.utf8).withUnsafeBytes { try file.append($0) }
      try file.commit(durability: .deferred)
      paths.append(directory.file(name).path)
    }
    try StagedFile.flush(paths)
    try StagedFile.flush([String]())
    #expect(try String(contentsOfFile: paths[2], encoding: .utf8) == "profiles/c")
  }

  @Test("A file that is gone when it is flushed is a failure naming it: the caller must not go on")
  func flushMissing() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let present = directory.file("present").path
    try StagedFile.replace(present, with: [1])
    let missing = directory.file("lists/missing.list").path
    do {
      try StagedFile.flush([present, missing])
      Issue.record("flushing a missing file succeeded")
    } catch {
      #expect(error.path == missing)
      #expect(error.detail.contains("opening to flush"))
      #expect(error.code == ENOENT)
    }
  }

  /// Descriptors of this process open on a file that was deleted (or replaced) at `path`.
  static func openDeleted(_ path: String) -> Int {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return entries.filter { entry in
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")) == "\(path) (deleted)"
    }.count
  }

  @Test(
    "A large target is held open until replaced, then let go: no descriptor of it stays open",
    arguments: [StagedFile.Durability.immediate, .deferred])
  func largeTargetReleased(durability: StagedFile.Durability) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("big.out").path
    try Data(count: StagedFile.largeTarget).write(to: URL(fileURLWithPath: path))
    let file = try StagedFile(replacing: path)
    #expect(file.replaced >= 0, "held open")
    try Array("new\n".utf8).withUnsafeBytes { try file.append($0) }
    try file.commit(durability: durability)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    // Closed on a thread of its own: gone within a few seconds at most.
    var open = Self.openDeleted(path)
    for _ in 0..<500 where open > 0 {
      try await Task.sleep(for: .milliseconds(10))
      open = Self.openDeleted(path)
    }
    #expect(open == 0)
  }

  @Test("An abandoned replacement closes the large target it held, which stays as it was")
  func largeTargetAbandoned() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("big.out").path
    try Data(count: StagedFile.largeTarget).write(to: URL(fileURLWithPath: path))
    let file = try StagedFile(replacing: path)
    let held = file.replaced
    #expect(held >= 0)
    file.abandon()
    #expect(fcntl(held, F_GETFD) == -1, "closed")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == StagedFile.largeTarget)
    let small = directory.file("small.out").path
    try StagedFile.replace(small, with: [1])
    let probe = try StagedFile(replacing: small)
    #expect(probe.replaced == -1, "a small target is not held")
    probe.abandon()
  }

  @Test("The directory of a path: its folder, / for a file at the root, . for a bare name")
  func directoryOfPath() {
    #expect(StagedFile.directory(of: "/data/lists/a.list") == "/data/lists")
    #expect(StagedFile.directory(of: "/hosts") == "/")
    #expect(StagedFile.directory(of: "hosts") == ".")
  }
}
