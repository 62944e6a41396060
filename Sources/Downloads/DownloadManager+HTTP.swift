import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

extension DownloadManager {
  /// What one attempt ended with.
  private enum Attempt {
    case done(DownloadEvent)
    case retry(DownloadError, retryAfter: Duration?)
  }

  /// What later attempts need to resume where an earlier one stopped.
  private struct ResumeState {
    /// A strong ETag or a Last-Modified date to send as `If-Range`; without one there is no resuming.
    var validator: String?
    var etag: String?
    var lastModified: String?
  }

  /// Downloads over HTTP(S) into `file`, retrying transient failures and resuming with `Range`.
  nonisolated func transferHTTP(
    _ request: DownloadRequest, into file: PartialFile, emit: @escaping @Sendable (DownloadEvent) -> Void
  ) async throws -> DownloadEvent {
    var resume = ResumeState()
    var throttle = ProgressThrottle(clock: clock, interval: configuration.progressInterval)
    let policy = configuration.retry
    var attempt = 1
    while true {
      emit(.connecting(attempt: attempt))
      let outcome = try await attemptHTTP(
        request, file: file, resume: &resume, throttle: &throttle, attempt: attempt, emit: emit)
      switch outcome {
      case .done(let event):
        return event
      case .retry(let error, let retryAfter):
        guard attempt < policy.maximumAttempts else { throw error }
        let delay = policy.delay(after: attempt, retryAfter: retryAfter)
        attempt += 1
        logger.debug(
          "retrying download",
          metadata: ["url": "\(URLPolicy.redacted(request.url))", "attempt": "\(attempt)", "reason": "\(error)"])
        emit(.retrying(attempt: attempt, of: policy.maximumAttempts, after: delay, reason: error))
        try await clock.sleep(for: delay)
      }
    }
  }

  /// One attempt: follows redirects, then answers 304, streams a 200/206 body, or reports the failure.
  private nonisolated func attemptHTTP(
    _ request: DownloadRequest, file: PartialFile, resume: inout ResumeState,
    throttle: inout ProgressThrottle<C>, attempt: Int, emit: @Sendable (DownloadEvent) -> Void
  ) async throws -> Attempt {
    var url = request.url
    var visited: Set<String> = [url.absoluteString]
    var redirects = 0
    while true {
      let shown = URLPolicy.redacted(url)
      var outgoing = HTTPClientRequest(url: url.absoluteString)
      outgoing.headers.add(name: "User-Agent", value: configuration.userAgent)
      outgoing.headers.add(name: "Accept-Encoding", value: "identity")
      let resuming = file.byteCount > 0 && resume.validator != nil
      if resuming, let validator = resume.validator {
        outgoing.headers.add(name: "Range", value: "bytes=\(file.byteCount)-")
        outgoing.headers.add(name: "If-Range", value: validator)
      } else {
        if file.byteCount > 0 { try file.truncate() }
        if let etag = request.validators.etag { outgoing.headers.add(name: "If-None-Match", value: etag) }
        if let date = request.validators.lastModified {
          outgoing.headers.add(name: "If-Modified-Since", value: date)
        }
      }

      let response: HTTPClientResponse
      do {
        response = try await httpClient.execute(outgoing, deadline: .distantFuture, logger: logger)
      } catch {
        if Task.isCancelled { throw CancellationError() }
        let mapped = DownloadError(error, url: shown, configuration: configuration)
        guard mapped.isTransient else { throw mapped }
        return .retry(mapped, retryAfter: nil)
      }

      let status = Int(response.status.code)
      switch status {
      case 301, 302, 303, 307, 308:
        await discard(response.body)
        guard let location = response.headers.first(name: "Location"),
          let target = URL(string: location, relativeTo: url)?.absoluteURL
        else { throw DownloadError.other(url: shown, detail: "HTTP \(status) without a Location header") }
        try URLPolicy.checkRedirect(from: url, to: target)
        redirects += 1
        guard redirects <= configuration.maximumRedirects else {
          throw DownloadError.tooManyRedirects(
            url: URLPolicy.redacted(request.url), limit: configuration.maximumRedirects)
        }
        guard visited.insert(target.absoluteString).inserted else {
          throw DownloadError.redirectLoop(url: URLPolicy.redacted(request.url))
        }
        url = target
      case 304 where !resuming && !request.validators.isEmpty:
        await discard(response.body)
        let validators = Validators(
          etag: response.headers.first(name: "ETag") ?? request.validators.etag,
          lastModified: response.headers.first(name: "Last-Modified") ?? request.validators.lastModified)
        return .done(.notModified(NotModified(finalURL: url, validators: validators)))
      case 416 where resuming:
        // Our partial copy no longer fits the document: start it again from the first byte.
        await discard(response.body)
        resume.validator = nil
      case 200, 206:
        return try await receive(
          response, from: url, request: request, file: file, resume: &resume, throttle: &throttle,
          attempt: attempt, emit: emit)
      default:
        await discard(response.body)
        let error = DownloadError.httpStatus(url: shown, code: status)
        guard error.isTransient else { throw error }
        return .retry(error, retryAfter: Self.retryAfter(response.headers))
      }
    }
  }

  /// Streams a 200 or 206 body into the file, checking size limits and completeness.
  private nonisolated func receive(
    _ response: HTTPClientResponse, from url: URL, request: DownloadRequest, file: PartialFile,
    resume: inout ResumeState, throttle: inout ProgressThrottle<C>, attempt: Int,
    emit: @Sendable (DownloadEvent) -> Void
  ) async throws -> Attempt {
    let shown = URLPolicy.redacted(url)
    let status = Int(response.status.code)
    let length = response.headers.first(name: "Content-Length").flatMap { Int64($0) }
    let total: Int64?
    if status == 206 {
      guard let range = ContentRange(response.headers.first(name: "Content-Range")),
        range.start == file.byteCount
      else {
        await discard(response.body)
        try file.truncate()
        resume.validator = nil
        return .retry(.connectionLost(url: shown, received: 0, expected: nil), retryAfter: .zero)
      }
      total = range.total
    } else {
      if file.byteCount > 0 { try file.truncate() }
      total = length
    }
    if let total, total > configuration.maximumBytes {
      await discard(response.body)
      throw DownloadError.tooLarge(url: shown, limit: configuration.maximumBytes, announced: total)
    }

    let etag = response.headers.first(name: "ETag")
    let lastModified = response.headers.first(name: "Last-Modified")
    resume = ResumeState(
      validator: etag.flatMap { $0.hasPrefix("W/") ? nil : $0 } ?? lastModified,
      etag: etag ?? resume.etag, lastModified: lastModified ?? resume.lastModified)
    let shownTotal = total ?? request.expectedSize
    let start = file.byteCount

    do {
      for try await chunk in response.body {
        guard file.byteCount + Int64(chunk.readableBytes) <= configuration.maximumBytes else {
          throw DownloadError.tooLarge(url: shown, limit: configuration.maximumBytes, announced: nil)
        }
        try file.append(chunk)
        if throttle.shouldSend(file.byteCount) {
          emit(.progress(DownloadProgress(bytesReceived: file.byteCount, totalBytes: shownTotal)))
        }
      }
    } catch let error as DownloadError {
      throw error
    } catch {
      if Task.isCancelled { throw CancellationError() }
      var mapped = DownloadError(error, url: shown, configuration: configuration, received: file.byteCount)
      if case .connectionLost = mapped {
        mapped = .connectionLost(url: shown, received: file.byteCount, expected: total)
      }
      guard mapped.isTransient else { throw mapped }
      return .retry(mapped, retryAfter: nil)
    }
    if Task.isCancelled { throw CancellationError() }
    if let length, file.byteCount - start != length {
      return .retry(.connectionLost(url: shown, received: file.byteCount, expected: total), retryAfter: nil)
    }

    if throttle.needsFinal(file.byteCount) {
      emit(.progress(DownloadProgress(bytesReceived: file.byteCount, totalBytes: shownTotal ?? file.byteCount)))
    }
    let digest = try file.finish()
    return .done(
      .completed(
        CompletedDownload(
          fileURL: file.url, finalURL: url, statusCode: status, etag: resume.etag,
          lastModified: resume.lastModified, byteCount: file.byteCount, sha256: digest, attempts: attempt)))
  }

  /// Reads and drops a short body (of a redirect or an error) so the connection can be reused.
  private nonisolated func discard(_ body: HTTPClientResponse.Body) async {
    _ = try? await body.collect(upTo: 1 << 20)
  }

  /// The delay a `Retry-After` header asks for, in its delta-seconds form.
  static func retryAfter(_ headers: HTTPHeaders) -> Duration? {
    headers.first(name: "Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map {
      .seconds($0)
    }
  }
}

/// A parsed `Content-Range: bytes START-END/TOTAL` header.
struct ContentRange: Equatable {
  var start: Int64
  var end: Int64
  var total: Int64?

  /// Parses the header; `nil` when it is absent or malformed.
  init?(_ header: String?) {
    guard let header, header.hasPrefix("bytes ") else { return nil }
    let parts = header.dropFirst(6).split(separator: "/", maxSplits: 1)
    let bounds = parts.first?.split(separator: "-", maxSplits: 1) ?? []
    guard parts.count == 2, bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]),
      start <= end
    else { return nil }
    self.start = start
    self.end = end
    self.total = parts[1] == "*" ? nil : Int64(parts[1])
  }
}
