import Apply
import Downloads
import Files
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Store
import Traffic
import UseCases

/// An error as the API returns it: `{"error": …, "suggestion": …}`, or a small page for a browser form.
struct ErrorPayload: Codable, Sendable {
  /// What went wrong, naming the bad value.
  var error: String
  /// What to do about it.
  var suggestion: String?

  /// The error as a response: JSON, or for a browser (a form, a page) a page that says it at the top, in
  /// the flash a script takes from it.
  func response(status: HTTPResponse.Status, for request: Request, renderer: PageRenderer) -> Response {
    guard request.wantsHTML else { return JSONResponse.make(self, status: status) }
    // Without the run's CSRF token: an error page also answers requests the guard refused.
    return PageRenderer(csrf: "", library: renderer.library).page(
      "error", title: status.reasonPhrase, section: "", model: ErrorPage(heading: status.reasonPhrase),
      flash: [error, suggestion].compactMap { $0 }.joined(separator: " "), status: status)
  }

  /// What an error page shows below the flash.
  struct ErrorPage {
    /// The status's reason phrase: "Bad Request".
    var heading: String
  }

  /// The payload and status for any error a route throws.
  static func from(_ error: any Error) -> (ErrorPayload, HTTPResponse.Status) {
    let localized = error as? any LocalizedError
    let message = localized?.errorDescription ?? String(describing: error)
    var payload = ErrorPayload(error: message, suggestion: localized?.recoverySuggestion)
    if let error = error as? ApplyError { payload.suggestion = WebAdvice.suggestion(for: error) }
    switch error {
    case is TestPlanError, is SourceAdditionError, is DownloadError:
      // A request's own value refused: a test's plan, a source's text or mirror, a URL the policy refuses.
      return (payload, .badRequest)
    case let error as DashboardError:
      switch error {
      case .alreadyRunning: return (payload, .conflict)
      case .notFound: return (payload, .notFound)
      default: return (payload, .badRequest)
      }
    case let error as StoreError:
      switch error {
      case .notFound: return (payload, .notFound)
      case .alreadyExists, .alreadyInProfile, .updateRunning, .deletingActiveProfile: return (payload, .conflict)
      case .invalid: return (payload, .badRequest)
      default: return (payload, .internalServerError)
      }
    case let error as ApplyError:
      switch error {
      case .notPermitted: return (payload, .forbidden)
      case .noSuchBackup: return (payload, .notFound)
      case .sectionEdited, .changedMeanwhile: return (payload, .conflict)
      case .writeFailed, .unreadable: return (payload, .internalServerError)
      default: return (payload, .badRequest)
      }
    case let error as NIOTooManyBytesError:
      let limit = error.maxBytes.map { " (\($0 / 1024) KiB)" } ?? ""
      return (
        ErrorPayload(error: "The request body is larger than the dashboard takes\(limit).", suggestion: nil),
        .contentTooLarge
      )
    case let error as TrafficError:
      if case .unreadable = error { return (payload, .internalServerError) }
      return (payload, .badRequest)
    case is DecodingError:
      return (ErrorPayload(error: "The request is not valid: \(Self.describe(error))", suggestion: nil), .badRequest)
    default:
      return (payload, .internalServerError)
    }
  }

  private static func describe(_ error: any Error) -> String {
    switch error as? DecodingError {
    case .keyNotFound(let key, _): "the field \"\(key.stringValue)\" is missing."
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
    default: String(describing: error)
    }
  }
}

/// Turns what a route throws into `ErrorPayload` responses (JSON, or a page for a browser form).
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
  /// Renders error pages.
  let renderer: PageRenderer

  /// Answers what `next` throws with its payload and status.
  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    do {
      return try await next(request, context)
    } catch let error as HTTPError {
      // An unknown address gets a page or a JSON body that says so, never an empty 404.
      let message =
        error.status == .notFound
        ? "Nothing is at \(request.uri.path)." : error.body ?? error.status.reasonPhrase
      let suggestion =
        error.status == .notFound
        ? (request.uri.path.hasPrefix("/api/")
          ? "See docs/dashboard.md, \"Routes\", for the API's routes."
          : "The pages are listed at the top of / (the overview).") : nil
      return ErrorPayload(error: message, suggestion: suggestion).response(
        status: error.status, for: request, renderer: renderer)
    } catch {
      let (payload, status) = ErrorPayload.from(error)
      if status == .internalServerError { context.logger.error("\(request.uri.path): \(payload.error)") }
      return payload.response(status: status, for: request, renderer: renderer)
    }
  }
}

/// The router's responder, answering HEAD as GET without the body (every page and API route, as a
/// client checking a URL expects; the router alone knows HEAD only where a route names it).
struct HeadAsGet<Inner: HTTPResponder>: HTTPResponder {
  let inner: Inner

  func respond(to request: Request, context: Inner.Context) async throws -> Response {
    guard request.method == .head else { return try await inner.respond(to: request, context: context) }
    var head = request.head
    head.method = .get
    let response = try await inner.respond(to: Request(head: head, body: request.body), context: context)
    return Response(status: response.status, headers: response.headers, body: ResponseBody())
  }
}
