import Foundation
import Locking
import NIOHTTP1

extension PiholeDouble {
  /// Answers one request: records it, routes it, checks the session where needed and adds `"took"`.
  func respond(to request: PiholeRequest) -> PiholeReply {
    let clock = ContinuousClock()
    let start = clock.now
    let agent = request.headers.first(name: "User-Agent") ?? ""
    state.withLock { state in
      state.requestLog.append((method: request.method, path: request.path))
      if request.method == "POST" && request.path == "/api/auth" { state.userAgents.append(agent) }
    }
    var reply = route(request)
    if let object = reply.object {
      let elapsed = (clock.now - start).components
      let took = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
      reply.body = PiholeJSON.object(object + [("took", .double(max(took, 0.000_01)))]).bytes
      reply.object = nil
    }
    return reply
  }

  private func route(_ request: PiholeRequest) -> PiholeReply {
    let path = request.path
    let method = request.method
    switch (method, path) {
    case ("POST", "/api/auth"): return login(request)
    case ("GET", "/api/auth"): return currentSession(request)
    case ("DELETE", "/api/auth"): return logout(request)
    case ("GET", "/api/info/login"): return .json(200, [("dns", .bool(true)), ("https_port", .int(0))])
    default: break
    }
    guard let handler = protectedRoute(method: method, path: path, request: request) else {
      return .error(404, "not_found", "Not found", hint: path)
    }
    if let refusal = authorize(request) { return refusal }
    let writes =
      ["POST", "PUT", "DELETE"].contains(method) && (path.hasPrefix("/api/domains") || path.hasPrefix("/api/lists"))
    if writes && now < state.withLock({ $0.readOnlyUntil }) {
      return .error(400, "database_error", "attempt to write a readonly database")
    }
    return handler()
  }

  private func protectedRoute(
    method: String, path: String, request: PiholeRequest
  ) -> (() -> PiholeReply)? {
    let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    switch (method, path) {
    case ("GET", "/api/auth/sessions"): return { self.sessionList(request) }
    case ("GET", "/api/info/version"): return { self.version() }
    case ("GET", "/api/info/ftl"): return { self.ftlInfo() }
    case ("GET", "/api/stats/summary"): return { self.summary() }
    case ("GET", "/api/queries"): return { self.queries(request) }
    // Not in the shared document, but in FTL's API: whether blocking is on.
    case ("GET", "/api/dns/blocking"): return { self.blockingState() }
    case ("POST", "/api/dns/blocking"): return { self.setBlocking(request) }
    case ("POST", "/api/action/gravity"): return { self.gravity() }
    case ("POST", "/api/lists:batchDelete"): return { self.batchDeleteLists(request) }
    case ("POST", "/api/domains:batchDelete"): return { self.batchDeleteDomains(request) }
    default: break
    }
    if method == "DELETE", path.hasPrefix("/api/auth/session/"), segments.count == 5, let id = Int(segments[4]) {
      return { self.deleteSession(id) }
    }
    if path == "/api/lists" || path.hasPrefix("/api/lists/") {
      let encoded = path.dropFirst("/api/lists".count).drop { $0 == "/" }
      let address = encoded.isEmpty ? nil : (String(encoded).removingPercentEncoding ?? String(encoded))
      switch method {
      case "GET": return { self.getLists(address: address, request) }
      case "POST" where address == nil: return { self.postLists(request) }
      case "PUT" where address != nil: return { self.putList(address: address!, request) }
      case "DELETE" where address != nil: return { self.deleteList(address: address!, request) }
      default: return nil
      }
    }
    if path == "/api/domains" || path.hasPrefix("/api/domains/") {
      // /api/domains[/{type}[/{kind}[/{domain}]]]
      let parts = Array(segments.dropFirst(3))
      let type = parts.count > 0 ? parts[0] : nil
      let kind = parts.count > 1 ? parts[1] : nil
      let domain = parts.count > 2 ? parts[2...].joined(separator: "/") : nil
      guard type.map({ ["allow", "deny"].contains($0) }) ?? true,
        kind.map({ ["exact", "regex"].contains($0) }) ?? true
      else { return nil }
      let decoded = domain.map { $0.removingPercentEncoding ?? $0 }
      switch method {
      case "GET": return { self.getDomains(type: type, kind: kind, domain: decoded) }
      case "POST" where type != nil && kind != nil && decoded == nil:
        return { self.postDomains(type: type!, kind: kind!, request) }
      case "PUT" where decoded != nil:
        return { self.putDomain(type: type!, kind: kind!, domain: decoded!, request) }
      case "DELETE" where decoded != nil:
        return { self.deleteDomain(type: type!, kind: kind!, domain: decoded!) }
      default: return nil
      }
    }
    if method == "GET", path.hasPrefix("/api/search/"), segments.count == 4, !segments[3].isEmpty {
      let domain = segments[3].removingPercentEncoding ?? segments[3]
      return { self.search(domain, request) }
    }
    return nil
  }

  /// Parses a JSON request body, or returns the daemon's 400 reply.
  func jsonBody(_ request: PiholeRequest) -> Result<Any, PiholeError> {
    guard !request.body.isEmpty else {
      return .failure(PiholeError(.error(400, "bad_request", "No request body data")))
    }
    guard let value = try? JSONSerialization.jsonObject(with: Data(request.body), options: [.fragmentsAllowed])
    else { return .failure(PiholeError(.error(400, "bad_request", "No valid JSON payload found"))) }
    return .success(value)
  }

  /// Seconds since 1970, as the daemon's integer timestamps.
  var timestamp: Int { Int(now) }
}
