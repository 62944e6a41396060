import Downloads
import Foundation
import Testing

@testable import SaneHostsCLI

@Suite("Showing download progress")
struct ProgressRendererTests {
  /// A renderer that records what it writes.
  final class Recorder: @unchecked Sendable {
    var lines: [(String, Terminal.Stream)] = []
  }

  func renderer(_ mode: ProgressRenderer.Mode, _ recorder: Recorder) -> ProgressRenderer {
    var renderer = ProgressRenderer(mode: mode, label: "hosts")
    renderer.width = 80
    renderer.write = { recorder.lines.append(($0, $1)) }
    return renderer
  }

  @Test("Byte counts use decimal units")
  func bytes() {
    #expect(ProgressRenderer.bytes(512) == "512 B")
    #expect(ProgressRenderer.bytes(1500) == "1.5 kB")
    #expect(ProgressRenderer.bytes(2_100_000) == "2.1 MB")
  }

  @Test("The bar shows the fraction; an unknown size shows a spinner and bytes")
  func bar() {
    var renderer = renderer(.bar, Recorder())
    let line = renderer.barLine(DownloadProgress(bytesReceived: 450, totalBytes: 1000))
    #expect(line.contains("45%"))
    #expect(line.contains("450 B of 1.0 kB"))
    #expect(line.contains("[#"))
    let spinner = renderer.barLine(DownloadProgress(bytesReceived: 2_000_000, totalBytes: nil))
    #expect(spinner.contains("downloading 2.0 MB"))
    #expect(!spinner.contains("%"))
  }

  @Test("Piped output prints at most one line per tenth of the download")
  func plainSteps() {
    let recorder = Recorder()
    var renderer = renderer(.plain, recorder)
    for bytes in stride(from: 0, through: 1000, by: 5) {
      renderer.render(.progress(DownloadProgress(bytesReceived: Int64(bytes), totalBytes: 1000)))
    }
    #expect(recorder.lines.count == 11)
    #expect(recorder.lines.allSatisfy { $0.1 == .standardError })
  }

  @Test("A retry says which attempt comes next, counted from 1")
  func retry() {
    let recorder = Recorder()
    var renderer = renderer(.bar, recorder)
    renderer.render(
      .retrying(attempt: 2, of: 3, after: .seconds(1), reason: .httpStatus(url: "https://x/h", code: 503)))
    #expect(recorder.lines.last?.0.contains("Retrying… (attempt 2 of 3)") == true)
  }

  @Test("JSON events are single lines with stable keys")
  func json() throws {
    let text = ProgressRenderer.json(.progress(DownloadProgress(bytesReceived: 5, totalBytes: 10)))
    #expect(!text.contains("\n"))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["event"] as? String == "progress")
    #expect(object["fraction"] as? Double == 0.5)
    let failure = ProgressRenderer.json(.failed(.httpStatus(url: "https://x/h", code: 404)))
    #expect(failure.contains("\"suggestion\""))
  }

  @Test("Quiet mode prints nothing")
  func quiet() {
    let recorder = Recorder()
    var renderer = renderer(.quiet, recorder)
    renderer.render(.connecting(attempt: 1))
    renderer.render(.failed(.cancelled(url: "u")))
    #expect(recorder.lines.isEmpty)
  }
}
