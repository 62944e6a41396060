import Crypto
import Foundation
import TestSupport
import Testing

@testable import Downloads

@Suite("Partial files")
struct PartialFileTests {
  @Test("Bytes are hashed as written; truncating starts the hash again")
  func hashing() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = try PartialFile(at: directory.file("a.part"))
    try Array("junk".utf8).withUnsafeBytes { try file.append($0) }
    try file.truncate()
    #expect(file.byteCount == 0)
    try Array("hello".utf8).withUnsafeBytes { try file.append($0) }
    let digest = try file.finish()
    #expect(digest == sha256(Array("hello".utf8)))
    #expect(try String(contentsOf: directory.file("a.part"), encoding: .utf8) == "hello")
  }

  @Test("A file never finished is removed when dropped; a finished one is kept, owner-only")
  func lifetime() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    do {
      let file = try PartialFile(at: directory.file("dropped.part"))
      try Array("x".utf8).withUnsafeBytes { try file.append($0) }
    }
    #expect(directory.contents().isEmpty)
    let kept = try PartialFile(at: directory.file("kept.part"))
    _ = try kept.finish()
    #expect(directory.contents() == ["kept.part"])
    let mode = try FileManager.default.attributesOfItem(atPath: directory.file("kept.part").path)[.posixPermissions]
    #expect(mode as? Int == 0o600)
  }

  @Test("A file in a missing directory is a named file-system error")
  func missingDirectory() {
    #expect(throws: DownloadError.self) { try PartialFile(at: URL(fileURLWithPath: "/nonexistent/dir/a.part")) }
  }
}
