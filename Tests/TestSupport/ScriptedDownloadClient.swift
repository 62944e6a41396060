import Downloads
import Foundation
import Locking

/// A `DownloadClient` that plays back scripted events, for tests of code that consumes downloads.
///
/// Each URL has a script of events; `download` yields them in order and finishes. A script may pause at
/// a `gate`: the stream then waits until the test calls `open(_:)`, so tests can cancel mid-way.
public final class ScriptedDownloadClient: DownloadClient {
  /// One step of a script.
  public enum Step: Sendable {
    case event(DownloadEvent)
    /// Waits here until `open(name)` is called, or the transfer is cancelled.
    case gate(String)
  }

  private struct State {
    var scripts: [URL: [Step]] = [:]
    var requests: [DownloadRequest] = []
    var cancelled: [URL] = []
    var openGates: Set<String> = []
  }

  private let state = Locked(State())

  /// Creates a client with no scripts; an unscripted URL fails with HTTP 404.
  public init() {}

  /// Sets the script for a URL.
  public func script(_ url: URL, _ steps: [Step]) {
    state.withLock { $0.scripts[url] = steps }
  }

  /// Lets scripts waiting at this gate go on.
  public func open(_ gate: String) {
    _ = state.withLock { $0.openGates.insert(gate) }
  }

  /// The requests received, in order.
  public var requests: [DownloadRequest] { state.withLock { $0.requests } }

  /// The URLs passed to `cancel(_:)`, in order.
  public var cancelled: [URL] { state.withLock { $0.cancelled } }

  public func download(_ request: DownloadRequest) -> AsyncStream<DownloadEvent> {
    let steps = state.withLock { state in
      state.requests.append(request)
      return state.scripts[request.url]
        ?? [.event(.failed(.httpStatus(url: request.url.absoluteString, code: 404)))]
    }
    let player = Player(steps: steps, client: self, url: request.url)
    return AsyncStream(unfolding: { await player.next() })
  }

  public func cancel(_ url: URL) async {
    state.withLock { $0.cancelled.append(url) }
  }

  fileprivate func isOpen(_ gate: String) -> Bool { state.withLock { $0.openGates.contains(gate) } }
  fileprivate func wasCancelled(_ url: URL) -> Bool { state.withLock { $0.cancelled.contains(url) } }
}

/// Plays one script: events in order, waiting at gates, ending with `failed(.cancelled)` if cancelled.
private actor Player {
  private var remaining: ArraySlice<ScriptedDownloadClient.Step>
  private var finished = false
  private let client: ScriptedDownloadClient
  private let url: URL

  init(steps: [ScriptedDownloadClient.Step], client: ScriptedDownloadClient, url: URL) {
    self.remaining = steps[...]
    self.client = client
    self.url = url
  }

  func next() async -> DownloadEvent? {
    while !finished, let step = remaining.popFirst() {
      switch step {
      case .event(let event):
        if event.isTerminal { finished = true }
        return event
      case .gate(let name):
        while !client.isOpen(name) {
          if Task.isCancelled || client.wasCancelled(url) {
            finished = true
            return .failed(.cancelled(url: url.absoluteString))
          }
          await Task.yield()
        }
      }
    }
    return nil
  }
}
