import Apply
import Foundation
import TestSupport
import Testing

@Suite("Rotating backups")
struct BackupsTests {
  @Test("Backups are listed newest first, private, and only the newest `keep` are kept")
  func rotation() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let backups = Backups(directory: directory.file("backups"), name: "hosts", keep: 3)
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    for index in 0..<5 {
      try backups.save(Array("version \(index)\n".utf8), date: start.addingTimeInterval(Double(index) * 60))
    }
    // Two in the same second are told apart and ordered.
    try backups.save(Array("version 5\n".utf8), date: start.addingTimeInterval(240))
    let list = backups.list()
    #expect(list.count == 3)
    #expect(
      list.map { try! String(contentsOf: $0.url, encoding: .utf8) } == ["version 5\n", "version 4\n", "version 3\n"])
    #expect(list.first?.id == "hosts-20270115T080400Z-2")
    var status = stat()
    #expect(stat(list[0].url.path, &status) == 0)
    #expect(status.st_mode & 0o777 == 0o600)
    #expect(backups.backup(id: list[1].id)?.url == list[1].url)
    #expect(backups.backup(id: "hosts-nope") == nil)
    #expect(list.map(\.bytes) == [10, 10, 10], "each one's size, as restore --list and the dashboard show it")
  }

  @Test("Files that are not our backups are ignored and kept")
  func foreignFiles() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let folder = directory.file("backups")
    let backups = Backups(directory: folder, name: "hosts", keep: 1)
    try backups.save([1])
    try Data("x".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    try Data("x".utf8).write(to: folder.appendingPathComponent("hosts-garbage"))
    try backups.save([2])
    #expect(backups.list().count == 1)
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("notes.txt").path))
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("hosts-garbage").path))
  }
}
