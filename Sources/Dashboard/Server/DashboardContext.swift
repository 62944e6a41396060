import Files
import Foundation
import Hummingbird

/// The request context of every dashboard route: bodies are JSON, or a form from a page without JavaScript.
public struct DashboardContext: RequestContext {
  /// Hummingbird's per-request storage (logger, parameters).
  public var coreContext: CoreRequestContextStorage

  /// Creates the context of one request.
  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
  }

  /// Reads JSON or form bodies.
  public var requestDecoder: BodyDecoder { BodyDecoder() }

  /// Bodies are at most 1 MiB: the dashboard takes settings and names, never uploads.
  public var maxUploadSize: Int { 1 << 20 }
}

/// Decodes a JSON body, or an `application/x-www-form-urlencoded` one (a plain HTML form).
///
/// A form repeats a field for each ticked checkbox (`category=Ads&category=Mixed`); such keys become
/// arrays (`category[]=…`), which is how the form decoder reads lists.
public struct BodyDecoder: RequestDecoder {
  /// Decodes the body as JSON, or as a form when the request says so.
  public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws
    -> T
  {
    if request.isForm {
      let body = String(buffer: try await request.body.collect(upTo: context.maxUploadSize))
      return try URLEncodedFormDecoder().decode(type, from: Self.arrayingRepeatedKeys(body))
    }
    return try await JSONCoding.decoder().decode(type, from: request, context: context)
  }

  /// `a=1&a=2&b=3` → `a[]=1&a[]=2&b=3`: keys given more than once become array keys.
  static func arrayingRepeatedKeys(_ body: String) -> String {
    let pairs = body.split(separator: "&", omittingEmptySubsequences: true)
    let keys = pairs.map { $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }
    var counts: [Substring: Int] = [:]
    for key in keys { counts[key, default: 0] += 1 }
    return zip(pairs, keys).map { pair, key in
      counts[key, default: 0] > 1 && !key.contains("%5B") && !key.contains("[")
        ? "\(key)[]\(pair.dropFirst(key.count))" : String(pair)
    }.joined(separator: "&")
  }
}

extension Request {
  /// Whether the body is a plain HTML form (the page worked without JavaScript).
  var isForm: Bool {
    headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
  }

  /// Whether the client would rather have HTML than JSON (a browser following a link or a form).
  var wantsHTML: Bool {
    isForm || (headers[.accept]?.contains("text/html") ?? false)
  }
}
