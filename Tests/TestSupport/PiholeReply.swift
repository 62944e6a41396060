/// A reply of the Pi-hole double, written as raw bytes.
struct PiholeReply: Sendable {
  var status: Int
  var headers: [(String, String)] = []
  var body: [UInt8] = []
  /// When set, the body is sent chunked, one chunk per element, instead of `body`.
  var chunks: [[UInt8]]?
  /// Raw bytes written after the response (the gravity bug).
  var trailing: [UInt8] = []
  /// A JSON object body still to be written; `"took"` is appended to it when the reply is sent.
  var object: [(String, PiholeJSON)]?

  /// A JSON reply; `"took"` is added when it is sent.
  static func json(_ status: Int, _ object: [(String, PiholeJSON)], headers: [(String, String)] = []) -> PiholeReply {
    PiholeReply(
      status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers, object: object)
  }

  /// An error reply: `{"error":{"key","message","hint"},"took"}`.
  static func error(_ status: Int, _ key: String, _ message: String, hint: String? = nil) -> PiholeReply {
    json(
      status, [("error", .object([("key", .string(key)), ("message", .nullable(message)), ("hint", .nullable(hint))]))])
  }

  /// 204 without a body.
  static let noContent = PiholeReply(status: 204)
}
