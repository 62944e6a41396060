import ArgumentParser
import Downloads
import Foundation

/// `sanehosts fetch`: downloads one list with live progress, conditionally and checksummed.
struct FetchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fetch",
    abstract: "Download one blocklist (URL or local file) with live progress.",
    discussion: """
      The list is streamed to a temporary file and only then written to --output, replacing it \
      atomically; an interrupted or failed download leaves the old file untouched. Give --etag or \
      --last-modified from an earlier run to skip an unchanged list (exit status 0, "not modified"). \
      Without --output the list is written to standard output. Progress goes to standard error: a bar \
      on a terminal, plain lines otherwise.

      Plain http:// is accepted only for this machine (127.0.0.1, localhost); use https:// elsewhere.
      """)

  @Argument(help: "An https:// URL, an http:// URL on this machine, a file:// URL or a local path.")
  var source: String

  @Option(name: .shortAndLong, help: "Write the list here (atomically) instead of to standard output.")
  var output: String?

  @Option(help: "The ETag of the copy you have; an unchanged list is not downloaded again.")
  var etag: String?

  @Option(help: "The Last-Modified value of the copy you have.")
  var lastModified: String?

  @Option(help: "Give up after this many seconds in all.")
  var timeout: Int = 300

  @Option(help: "Attempts for transient failures (1 = no retry).")
  var attempts: Int = 3

  @Option(help: "Refuse lists larger than this many MiB.")
  var maxSize: Int = 512

  @OptionGroup var printing: OutputOptions

  @Flag(name: .shortAndLong, help: "Print nothing but errors.")
  var quiet = false

  func validate() throws {
    if printing.json && output == nil {
      throw ValidationError("--json needs --output: the list itself would mix with the events.")
    }
    if timeout < 1 { throw ValidationError("--timeout must be at least 1 second, not \(timeout).") }
    if attempts < 1 { throw ValidationError("--attempts must be at least 1, not \(attempts).") }
    if maxSize < 1 { throw ValidationError("--max-size must be at least 1 MiB, not \(maxSize).") }
  }

  func run() async throws {
    let url = try Self.url(for: source)
    var configuration = DownloadConfiguration()
    configuration.totalTimeout = .seconds(timeout)
    configuration.retry.maximumAttempts = attempts
    configuration.maximumBytes = Int64(maxSize) * 1024 * 1024
    let request = DownloadRequest(url: url, validators: Validators(etag: etag, lastModified: lastModified))

    let mode: ProgressRenderer.Mode =
      printing.json ? .json : quiet ? .quiet : Terminal.isInteractive(.standardError) ? .bar : .plain
    let label = url.lastPathComponent.isEmpty ? source : url.lastPathComponent
    let output = output.map { URL(fileURLWithPath: $0) }

    try await DownloadManager.withManager(configuration: configuration) { manager in
      try await Interrupts.cancelling(onSignal: { await manager.cancelAll() }) {
        var renderer = ProgressRenderer(mode: mode, label: label)
        var outcome: DownloadEvent?
        for await event in manager.download(request) {
          renderer.render(event)
          outcome = event
        }
        switch outcome {
        case .completed(let done):
          do {
            if let output {
              try done.install(at: output)
            } else {
              try Self.copyToStandardOutput(done.fileURL)
            }
          } catch {
            // The download is complete but cannot be delivered: remove it rather than leave it behind.
            try? FileManager.default.removeItem(at: done.fileURL)
            throw error
          }
          renderer.summary(done, savedTo: output?.path)
        case .notModified:
          break
        case .failed(.cancelled):
          Terminal.writeError("Cancelled; nothing was written.\n")
          throw ExitCode(130)
        case .failed(let error):
          throw error
        default:
          // The stream ended without an outcome: the command itself was cancelled by a signal.
          Terminal.writeError("Cancelled; nothing was written.\n")
          throw ExitCode(130)
        }
      }
    }
  }

  /// Turns the command-line source into a URL: URLs stay as they are, paths become file URLs.
  static func url(for source: String) throws -> URL {
    if source.contains("://") {
      guard let url = URL(string: source) else { throw DownloadError.invalidURL(source) }
      return url
    }
    return URL(fileURLWithPath: source)
  }

  private static func copyToStandardOutput(_ file: URL) throws {
    defer { try? FileManager.default.removeItem(at: file) }
    let input = try FileHandle(forReadingFrom: file)
    defer { try? input.close() }
    // A reader that went away (`| head -2`) ends the copy quietly (Terminal.pipeClosed).
    while let chunk = try input.read(upToCount: 256 * 1024), !chunk.isEmpty {
      guard Terminal.write(Array(chunk), to: 1) else { return }
    }
  }
}
