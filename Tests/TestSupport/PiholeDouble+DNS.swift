import DNS
import Foundation
import Locking

extension PiholeDouble {
  /// The address its DNS server gives a name it does not block (an upstream's answer).
  public static let upstreamAddress = "198.51.100.7"

  /// `127.0.0.1:PORT` of its DNS server, as `--resolver` takes it.
  public var resolver: String { "127.0.0.1:\(state.withLock { $0.dnsPort })" }

  /// Whether blocking is on; set it as `POST /api/dns/blocking` would.
  public var blocking: Bool {
    get { state.withLock { $0.blocking } }
    set { state.withLock { $0.blocking = newValue } }
  }

  /// Whether it blocks `name` as FTL does: blocking on, no allow entry, and a gravity entry of an
  /// enabled block list or a deny entry (exact, or a regular expression that matches).
  public func blocks(_ name: String) -> Bool {
    let name = name.lowercased()
    return state.withLock { state in
      guard state.blocking else { return false }
      func matches(_ rule: DomainRule) -> Bool {
        guard rule.enabled else { return false }
        guard rule.kind == "regex" else { return rule.domain == name }
        return (try? NSRegularExpression(pattern: rule.domain))?.firstMatch(
          in: name, range: NSRange(name.startIndex..., in: name)) != nil
      }
      if state.domains.contains(where: { $0.type == "allow" && matches($0) }) { return false }
      if state.domains.contains(where: { $0.type == "deny" && matches($0) }) { return true }
      return state.lists.contains { $0.type == "block" && $0.enabled && $0.domains.contains(name) }
    }
  }

  /// Its DNS server's answer: `0.0.0.0` or `::` for a blocked name (FTL's default NULL mode), the
  /// upstream's address otherwise.
  @Sendable func answer(_ request: FakeDNSServer.Request) -> [FakeDNSServer.Reply] {
    guard let question = request.message?.questions.first else { return [] }
    let name = question.name.hasSuffix(".") ? String(question.name.dropLast()) : question.name
    let blocked = blocks(name)
    var answers: [Record] = []
    switch question.type {
    case .a: answers = [Record(name: question.name, data: .a(IPv4Address(blocked ? "0.0.0.0" : Self.upstreamAddress)!))]
    case .aaaa where blocked: answers = [Record(name: question.name, data: .aaaa(IPv6Address("::")!))]
    default: break
    }
    return [.bytes(FakeDNSServer.response(to: request, answers: answers, code: .noError))]
  }

  func blockingState() -> PiholeReply {
    .json(200, [("blocking", .string(blocking ? "enabled" : "disabled")), ("timer", .null)])
  }

  func setBlocking(_ request: PiholeRequest) -> PiholeReply {
    guard case .success(let value) = jsonBody(request), let object = value as? [String: Any],
      let on = object["blocking"] as? Bool
    else { return .error(400, "bad_request", "No \"blocking\" boolean in JSON payload") }
    blocking = on
    return blockingState()
  }
}
