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

      let tag = try #require(done.etag)
      let again = await collectEvents(
        manager.download(DownloadRequest(url: source, validators: Validators(etag: tag, lastModified: modified))))
      if case .notModified = again.last {} else { Issue.record("expected notModified, got \(again)") }
    }
  }

  @Test("A file rewritten within the same second (same Last-Modified) is read again, not taken as unchanged")
  func sameSecond() async throws {
    try await withFixture { _, manager, directory in
      let source = directory.file("list.txt")
      try Data("a.website\n".utf8).write(to: source)
      let first = try #require(await collectEvents(manager.download(source)).completed)
      try Data("a.website\nb.website\n".utf8).write(to: source)
      // The same whole second as before: Last-Modified cannot tell the two apart.
      var times = [
        timespec(tv_sec: 1_800_000_000, tv_nsec: 100), timespec(tv_sec: 1_800_000_000, tv_nsec: 100),
      ]
      #expect(utimensat(AT_FDCWD, source.path, &times, 0) == 0)
      let stamped = try #require(await collectEvents(manager.download(source)).completed)
      try Data("a.website\nb.website\nc.website\n".utf8).write(to: source)
      times = [timespec(tv_sec: 1_800_000_000, tv_nsec: 900), timespec(tv_sec: 1_800_000_000, tv_nsec: 900)]
      #expect(utimensat(AT_FDCWD, source.path, &times, 0) == 0)
      let validators = Validators(etag: stamped.etag, lastModified: stamped.lastModified)
      let again = await collectEvents(manager.download(DownloadRequest(url: source, validators: validators)))
      let reread = try #require(again.completed, "expected the new content, got \(again)")
      #expect(reread.byteCount == 30 && reread.lastModified == stamped.lastModified)
      #expect(first.etag != stamped.etag)
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
