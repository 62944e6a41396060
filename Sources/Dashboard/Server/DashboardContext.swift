import Foundation
import Hummingbird

/// The request context of every dashboard route: bodies are JSON, or a form from a page without JavaScript.
public struct DashboardContext: RequestContext {
  public var coreContext: CoreRequestContextStorage

  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
  }

  public var requestDecoder: BodyDecoder { BodyDecoder() }

  /// Bodies are at most 1 MiB: the dashboard takes settings and names, never uploads.
  public var maxUploadSize: Int { 1 << 20 }
}

/// Decodes a JSON body, or an `application/x-www-form-urlencoded` one (a plain HTML form).
public struct BodyDecoder: RequestDecoder {
  public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws
    -> T
  {
    if request.isForm {
      return try await URLEncodedFormDecoder().decode(type, from: request, context: context)
    }
    return try await JSONDecoder().decode(type, from: request, context: context)
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
