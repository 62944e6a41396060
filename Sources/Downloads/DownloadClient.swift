import Foundation

/// Something that downloads documents as a stream of events: the live manager, or a scripted fake.
public protocol DownloadClient: Sendable {
  /// Starts a download; the stream ends after one `completed`, `notModified` or `failed` event.
  ///
  /// Cancelling the task that iterates the stream (or dropping the stream) cancels the transfer.
  func download(_ request: DownloadRequest) -> AsyncStream<DownloadEvent>

  /// Cancels the transfer of a URL in flight; its stream ends with `failed(.cancelled)`.
  func cancel(_ url: URL) async
}

extension DownloadClient {
  /// Starts an unconditional download of `url`, with the size the caller expects, if any.
  public func download(_ url: URL, expectedSize: Int64? = nil) -> AsyncStream<DownloadEvent> {
    download(DownloadRequest(url: url, expectedSize: expectedSize))
  }
}
