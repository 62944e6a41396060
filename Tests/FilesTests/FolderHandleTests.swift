import Files
import Foundation
import TestSupport
import Testing

@Suite("Folder handles: a data directory's names reached without following a link")
struct FolderHandleTests {
  /// A data directory with a file outside it that a link could point at.
  struct Layout {
    let directory: TemporaryDirectory
    let data: URL
    let outside: URL

    init() throws {
      directory = try TemporaryDirectory(prefix: "sanehosts-folder")
      data = directory.file("data")
      outside = directory.file("outside")
      try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
      try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
      try Data("secret\n".utf8).write(to: outside.appending(path: "secret"))
    }

    func link(_ name: String, to target: URL) throws {
      try FileManager.default.createSymbolicLink(
        atPath: data.appending(path: name).path, withDestinationPath: target.path)
    }
  }

  @Test("A subfolder that is a symbolic link is refused, and nothing is made where it points")
  func linkedFolder() throws {
    let layout = try Layout()
    defer { layout.directory.remove() }
    try layout.link("backups", to: layout.outside)
    let data = try FolderHandle.open(layout.data.path)
    #expect(throws: StagedFile.Failure.self) { try data.folder("backups", create: true) }
    do {
      _ = try data.folder("backups", create: true)
    } catch {
      #expect(error.detail.contains("symbolic link"), "\(error.detail)")
      #expect(error.path.hasSuffix("/backups"))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: layout.outside.path) == ["secret"])
  }

  @Test("A file that is a link, a FIFO or a folder is refused by name; a FIFO without waiting for a writer")
  func specialFiles() throws {
    let layout = try Layout()
    defer { layout.directory.remove() }
    try layout.link("apply.lock", to: layout.outside.appending(path: "nologin"))
    try layout.link("copy.list", to: layout.outside.appending(path: "secret"))
    #expect(mkfifo(layout.data.appending(path: "fifo").path, 0o600) == 0)
    try FileManager.default.createDirectory(at: layout.data.appending(path: "dir"), withIntermediateDirectories: true)
    let data = try FolderHandle.open(layout.data.path)
    func detail(_ body: () throws -> Void) -> String {
      do {
        try body()
        return "accepted"
      } catch let failure as StagedFile.Failure {
        return failure.detail
      } catch {
        return "\(error)"
      }
    }
    // Created through the link, the lock would have made outside/nologin.
    #expect(detail { _ = try data.openFile("apply.lock", flags: O_RDWR | O_CREAT) }.contains("symbolic link"))
    #expect(!FileManager.default.fileExists(atPath: layout.outside.appending(path: "nologin").path))
    #expect(detail { _ = try data.read("copy.list") }.contains("symbolic link"))
    #expect(detail { _ = try data.read("fifo") }.contains("FIFO"))
    #expect(detail { _ = try data.read("dir") }.contains("folder"))
    #expect(detail { _ = try data.read("../outside/secret") }.contains("not a name"))
    #expect(try data.read("missing") == nil)
  }

  @Test("A hard link to another file is refused: the store's files have one link")
  func hardLink() throws {
    let layout = try Layout()
    defer { layout.directory.remove() }
    #expect(
      link(layout.outside.appending(path: "secret").path, layout.data.appending(path: "applied.json").path) == 0)
    let data = try FolderHandle.open(layout.data.path)
    #expect(throws: StagedFile.Failure.self) { _ = try data.read("applied.json") }
  }

  @Test("A replace renames inside the folder; a link at the name is refused, not written through")
  func replace() throws {
    let layout = try Layout()
    defer { layout.directory.remove() }
    let data = try FolderHandle.open(layout.data.path)
    try data.replace("applied.json", with: Array("{}".utf8))
    #expect(try data.read("applied.json") == Array("{}".utf8))
    try layout.link("loaded", to: layout.outside)
    #expect(throws: StagedFile.Failure.self) { try data.folder("loaded", create: true).replace("x", with: [1]) }
    try layout.link("target", to: layout.outside.appending(path: "secret"))
    #expect(throws: StagedFile.Failure.self) { try data.replace("target", with: [1]) }
    #expect(try String(contentsOf: layout.outside.appending(path: "secret"), encoding: .utf8) == "secret\n")
    #expect(Set(data.names()) == ["applied.json", "loaded", "target"], "no temporary file is left")
  }

  @Test("As root in another user's folder: what is created is given to that user; the user's files are read")
  func owner() throws {
    guard geteuid() == 0 else { return }
    let layout = try Layout()
    defer { layout.directory.remove() }
    #expect(chown(layout.data.path, 65534, 65534) == 0)
    let data = try FolderHandle.open(layout.data.path)
    try data.replace("applied.json", with: [1])
    let folder = try data.folder("backups", create: true)
    let lock = try #require(try data.openFile("apply.lock", flags: O_RDWR | O_CREAT))
    close(lock)
    for name in ["applied.json", "backups", "apply.lock"] {
      #expect(data.status(name)?.st_uid == 65534, "\(name)")
    }
    try folder.replace("copy", with: [2])
    #expect(folder.status("copy")?.st_uid == 65534)
    #expect(try folder.read("copy") == [2])
  }

  @Test("A file another user owns in the folder is refused (neither the folder's owner nor this process)")
  func foreignFile() throws {
    guard geteuid() == 0 else { return }
    let layout = try Layout()
    defer { layout.directory.remove() }
    #expect(chown(layout.data.path, 65534, 65534) == 0)
    let file = layout.data.appending(path: "apply.request")
    try Data("[]".utf8).write(to: file)
    #expect(chown(file.path, 12345, 12345) == 0)
    let data = try FolderHandle.open(layout.data.path)
    #expect(throws: StagedFile.Failure.self) { _ = try data.read("apply.request") }
  }
}
