import Foundation
import TestSupport
import Testing

@testable import Traffic

@Suite("Following a log as it grows, is rotated and cut")
struct LogFollowerTests {
  static func append(_ text: String, to file: URL) throws {
    let handle = try FileHandle(forWritingTo: file)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(text.utf8))
    try handle.close()
  }

  static func poll(_ follower: inout LogFollower) -> [String] {
    var lines: [String] = []
    follower.poll { line, _ in lines.append(String(decoding: line, as: UTF8.self)) }
    return lines
  }

  @Test("From the end: only new whole lines; a line is handed out once its break is written")
  func grows() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("dnsmasq.log")
    try Data("old line\n".utf8).write(to: file)
    var follower = try LogFollower(path: file.path)
    #expect(Self.poll(&follower).isEmpty)
    try Self.append("first\r\nsecond hal", to: file)
    #expect(Self.poll(&follower) == ["first"])
    try Self.append("f\n", to: file)
    #expect(Self.poll(&follower) == ["second half"])
    #expect(follower.lineNumber == 2)
  }

  @Test("Rotated (a new file at the path) or cut shorter: read again from the start")
  func rotatedAndCut() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("dnsmasq.log")
    try Data("a\n".utf8).write(to: file)
    var follower = try LogFollower(path: file.path)
    try FileManager.default.moveItem(at: file, to: directory.file("dnsmasq.log.1"))
    #expect(Self.poll(&follower).isEmpty, "nothing at the path yet")
    try Data("new 1\nnew 2\n".utf8).write(to: file)
    #expect(Self.poll(&follower) == ["new 1", "new 2"])
    let handle = try FileHandle(forWritingTo: file)
    try handle.truncate(atOffset: 0)
    try handle.close()
    try Self.append("after cut\n", to: file)
    #expect(Self.poll(&follower) == ["after cut"])
    #expect(throws: TrafficError.self) { try LogFollower(path: directory.file("missing").path) }
  }
}
