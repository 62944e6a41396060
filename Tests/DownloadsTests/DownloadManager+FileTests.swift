import Downloads
import Foundation
import TestSupport
import Testing

@Suite("Local files as sources")
struct DownloadManagerFileTests {
  @Test("A local file is copied with checksum and its modification time as Last-Modified")
  func copy() async throws {
    try await withFixture { _, manager, directory in
      let source = directory.file("list.txt")
      let bytes = seededBytes(count: 700_000, seed: 7)
      try Data(bytes).write(to: source)
      let all = await collectEvents(manager.download(source))
      let done = try #require(all.completed)
      #expect(done.sha256 == sha256(bytes))
      #expect(done.byteCount == 700_000)
      #expect(all.progress.last == DownloadProgress(bytesReceived: 700_000, totalBytes: 700_000))
      let modified = try #require(done.lastModified)
      #expect(modified.hasSuffix(" GMT"))

      let again = await collectEvents(
        manager.download(DownloadRequest(url: source, validators: Validators(lastModified: modified))))
      if case .notModified = again.last {} else { Issue.record("expected notModified, got \(again)") }
    }
  }

  @Test("A missing file or a directory is named in the error")
  func missing() async throws {
    try await withFixture { _, manager, directory in
      let missing = directory.file("nope.txt")
      let all = await collectEvents(manager.download(missing))
      #expect(all.failure == .fileNotFound(path: missing.path))
      let folder = await collectEvents(manager.download(directory.url))
      #expect(folder.failure == .fileNotFound(path: directory.url.path))
      #expect(all.failure?.errorDescription?.contains("nope.txt") == true)
    }
  }
}
