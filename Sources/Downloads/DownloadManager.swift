import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOSSL

/// Downloads documents over HTTP(S) or from local files, one transfer per URL, with progress events.
///
/// The manager owns every transfer in flight, keyed by URL. A second request for a URL already in
/// flight **supersedes** the first: the first stream ends with `failed(.superseded)` and its temporary
/// file is removed, so the newest request (with the newest validators) wins and two transfers never
/// race for the same document. Each transfer runs in one task the manager tracks and cancels on
/// `cancel(_:)`, on supersession, or when the consumer stops iterating its stream.
///
/// Timing (retry backoff, the total time limit, progress throttling) goes through the injected clock.
public actor DownloadManager<C: Clock>: DownloadClient where C.Duration == Duration {
  /// The limits and timing in force.
  public nonisolated let configuration: DownloadConfiguration
  nonisolated let clock: C
  nonisolated let logger: Logger
  nonisolated let httpClient: HTTPClient
  private var transfers: [String: TransferControl] = [:]
  /// Every transfer whose task has started and not yet ended, superseded ones included: `shutdown()`
  /// waits for them, so their temporary files are gone before it returns.
  private var running: [ObjectIdentifier: TransferControl] = [:]

  /// Creates a manager with its own HTTP client; call `shutdown()` when done, or use `withManager`.
  public init(
    configuration: DownloadConfiguration = DownloadConfiguration(), clock: C,
    logger: Logger = Logger(label: "sanehosts.downloads")
  ) {
    self.configuration = configuration
    self.clock = clock
    self.logger = logger
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.additionalTrustRoots = configuration.extraTrustRoots.map { .file($0) }
    var client = HTTPClient.Configuration(
      tlsConfiguration: tls,
      redirectConfiguration: .disallow,
      timeout: HTTPClient.Configuration.Timeout(
        connect: configuration.connectTimeout.timeAmount, read: configuration.idleTimeout.timeAmount),
      decompression: .disabled)
    // A refused connection or a name that does not resolve fails the request at once. (By default the
    // client tries to connect again, with backoff, until the connect timeout: 5 s for each offline source.)
    // The manager's own retries decide what is worth trying again.
    client.connectionPool.retryConnectionEstablishment = false
    self.httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: client)
  }

  /// Runs `body` with a new manager and shuts it down afterwards, also when `body` throws.
  public static func withManager<R: Sendable>(
    configuration: DownloadConfiguration = DownloadConfiguration(), clock: C,
    logger: Logger = Logger(label: "sanehosts.downloads"),
    _ body: (DownloadManager) async throws -> R
  ) async throws -> R {
    let manager = DownloadManager(configuration: configuration, clock: clock, logger: logger)
    let result: R
    do {
      result = try await body(manager)
    } catch {
      await manager.shutdown()
      throw error
    }
    await manager.shutdown()
    return result
  }

  /// Cancels every transfer, closes the HTTP client's connections, and waits until every transfer's
  /// task has ended and removed what it wrote.
  ///
  /// A command that exits on Ctrl-C right after this leaves nothing behind: before it waited, a
  /// transfer's task could still be removing its `.part` file when the process ended (seen under load).
  public func shutdown() async {
    cancelAll()
    // Superseded transfers too: every registered transfer is in `running`.
    for control in running.values { control.cancel(.requested) }
    try? await httpClient.shutdown()
    while let control = running.values.first {
      await control.wait()
      running[ObjectIdentifier(control)] = nil
    }
  }

  /// The URLs of the transfers in flight.
  public var activeURLs: [String] { transfers.keys.sorted() }

  public nonisolated func download(_ request: DownloadRequest) -> AsyncStream<DownloadEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: DownloadEvent.self)
    let control = TransferControl()
    continuation.onTermination = { termination in
      if case .cancelled = termination { control.cancel(.consumerGone) }
    }
    control.start {
      await self.register(request.key, control)
      let outcome = await self.perform(request, control: control) { continuation.yield($0) }
      control.finish()
      await self.unregister(request.key, control)
      if case .terminated = continuation.yield(outcome), case .completed(let done) = outcome {
        // Nobody is left to take the file: do not leave it behind.
        try? FileManager.default.removeItem(at: done.fileURL)
      }
      continuation.finish()
      await self.ended(control)
    }
    return stream
  }

  public func cancel(_ url: URL) {
    transfers[DownloadRequest(url: url).key]?.cancel(.requested)
  }

  /// Cancels every transfer in flight.
  public func cancelAll() {
    for control in transfers.values { control.cancel(.requested) }
  }

  private func register(_ key: String, _ control: TransferControl) {
    running[ObjectIdentifier(control)] = control
    if let earlier = transfers[key] {
      logger.debug("superseding transfer", metadata: ["url": "\(key)"])
      earlier.cancel(.superseded)
    }
    transfers[key] = control
  }

  private func unregister(_ key: String, _ control: TransferControl) {
    if transfers[key] === control { transfers[key] = nil }
  }

  /// The transfer's task is about to end, its files removed or handed over.
  private func ended(_ control: TransferControl) {
    running[ObjectIdentifier(control)] = nil
  }

  /// Runs one transfer to its end under the total time limit and returns the terminal event.
  private nonisolated func perform(
    _ request: DownloadRequest, control: TransferControl, emit: @escaping @Sendable (DownloadEvent) -> Void
  ) async -> DownloadEvent {
    let shown = URLPolicy.redacted(request.url)
    let limit = configuration.totalTimeout
    do {
      let kind = try URLPolicy.check(request.url)
      return try await withThrowingTaskGroup(of: DownloadEvent.self) { group in
        group.addTask {
          let file = try PartialFile(
            at: self.configuration.temporaryDirectory.appending(path: "sanehosts-\(UUID().uuidString).part"))
          do {
            switch kind {
            case .remote: return try await self.transferHTTP(request, into: file, emit: emit)
            case .file(let path): return try await self.transferFile(path, request, into: file, emit: emit)
            }
          } catch {
            file.discard()
            throw error
          }
        }
        group.addTask {
          try await self.clock.sleep(for: limit)
          throw DownloadError.timeout(url: shown, kind: .total, limit: limit)
        }
        defer { group.cancelAll() }
        return try await group.next()!
      }
    } catch {
      if let reason = control.cancelReason {
        return .failed(reason == .superseded ? .superseded(url: shown) : .cancelled(url: shown))
      }
      return .failed(DownloadError(error, url: shown, configuration: configuration))
    }
  }
}

extension DownloadManager where C == ContinuousClock {
  /// Creates a manager on the continuous clock; call `shutdown()` when done, or use `withManager`.
  public init(
    configuration: DownloadConfiguration = DownloadConfiguration(),
    logger: Logger = Logger(label: "sanehosts.downloads")
  ) {
    self.init(configuration: configuration, clock: ContinuousClock(), logger: logger)
  }

  /// Runs `body` with a new manager on the continuous clock and shuts it down afterwards.
  public static func withManager<R: Sendable>(
    configuration: DownloadConfiguration = DownloadConfiguration(),
    logger: Logger = Logger(label: "sanehosts.downloads"),
    _ body: (DownloadManager) async throws -> R
  ) async throws -> R {
    try await withManager(configuration: configuration, clock: ContinuousClock(), logger: logger, body)
  }
}

extension Duration {
  /// The duration as a NIO time amount.
  var timeAmount: TimeAmount {
    let (seconds, attoseconds) = components
    return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }
}
