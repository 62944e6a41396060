import Downloads
import Files
import Foundation
import TestSupport
import Testing

@Suite("Installing a finished download")
struct CompletedDownloadInstallTests {
  @Test("install(at:) replaces an existing file atomically and leaves no temp file")
  func replace() async throws {
    try await withFixture { server, manager, directory in
      server.route("/list", .resource(.init("0.0.0.0 new.website\n")))
      let destination = directory.file("cached.txt")
      try Data("0.0.0.0 old.website\n".utf8).write(to: destination)
      let done = try #require(await collectEvents(manager.download(server.url("/list"))).completed)
      try done.install(at: destination)
      #expect(try String(contentsOf: destination, encoding: .utf8) == "0.0.0.0 new.website\n")
      #expect(directory.contents() == ["cached.txt"])
    }
  }

  @Test("A deferred install puts the document in place the same way; the caller's flush then succeeds")
  func deferred() async throws {
    try await withFixture { server, manager, directory in
      server.route("/list", .resource(.init("0.0.0.0 new.website\n")))
      let destination = directory.file("copy.list")
      let done = try #require(await collectEvents(manager.download(server.url("/list"))).completed)
      try done.install(at: destination, durability: .deferred)
      #expect(try String(contentsOf: destination, encoding: .utf8) == "0.0.0.0 new.website\n")
      #expect(directory.contents() == ["copy.list"])
      try StagedFile.flush([destination.path])
    }
  }

  @Test("Installing into a missing directory fails with the path named, and keeps the download")
  func missingDirectory() async throws {
    try await withFixture { server, manager, directory in
      server.route("/list", .resource(.init("0.0.0.0 new.website\n")))
      let done = try #require(await collectEvents(manager.download(server.url("/list"))).completed)
      let destination = directory.file("no/such/dir/cached.txt")
      #expect(throws: DownloadError.self) { try done.install(at: destination) }
      #expect(FileManager.default.fileExists(atPath: done.fileURL.path))
    }
  }

  @Test("A FIFO destination (like /dev/null) receives the document in place and stays a FIFO")
  func fifo() async throws {
    try await withFixture { server, manager, directory in
      server.route("/list", .resource(.init("0.0.0.0 new.website\n")))
      let done = try #require(await collectEvents(manager.download(server.url("/list"))).completed)
      let fifo = try FIFOReader(in: directory)
      try done.install(at: URL(fileURLWithPath: fifo.path))
      #expect(try fifo.finish() == "0.0.0.0 new.website\n")
      #expect(fifo.isStillFIFO)
      #expect(!FileManager.default.fileExists(atPath: done.fileURL.path), "the temporary file is removed")
    }
  }
}
