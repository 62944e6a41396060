import Foundation
import Locking

extension PiholeDouble {
  static func json(_ rule: DomainRule) -> PiholeJSON {
    .object([
      ("domain", .string(rule.domain)), ("unicode", .string(rule.domain)), ("type", .string(rule.type)),
      ("kind", .string(rule.kind)), ("comment", .nullable(rule.comment)), ("groups", .ints(rule.groups)),
      ("enabled", .bool(rule.enabled)), ("id", .int(rule.id)), ("date_added", .int(rule.dateAdded)),
      ("date_modified", .int(rule.dateModified)),
    ])
  }

  /// Nil when `pattern` compiles, else a hint in the style of the daemon's regex errors.
  static func regexProblem(_ pattern: String) -> String? {
    do {
      _ = try NSRegularExpression(pattern: pattern)
      return nil
    } catch {
      var brackets = 0
      var parentheses = 0
      var escaped = false
      for character in pattern {
        if escaped {
          escaped = false
          continue
        }
        switch character {
        case "\\": escaped = true
        case "[": brackets += 1
        case "]": brackets -= 1
        case "(": parentheses += 1
        case ")": parentheses -= 1
        default: break
        }
      }
      if brackets > 0 { return "Missing ']'" }
      if parentheses > 0 { return "Missing ')'" }
      if parentheses < 0 { return "Unmatched ')'" }
      return "Invalid regular expression"
    }
  }

  func getDomains(type: String?, kind: String?, domain: String?) -> PiholeReply {
    let rules = state.withLock { $0.domains }.filter {
      (type == nil || $0.type == type) && (kind == nil || $0.kind == kind) && (domain == nil || $0.domain == domain)
    }
    return .json(200, [("domains", .array(rules.map(Self.json)))])
  }

  private func domainBody(_ request: PiholeRequest) -> Result<[String: Any], PiholeError> {
    jsonBody(request).flatMap { value in
      guard let object = value as? [String: Any] else {
        return .failure(PiholeError(.error(400, "bad_request", "Invalid request: Body needs to be a JSON object")))
      }
      return .success(object)
    }
  }

  func postDomains(type: String, kind: String, _ request: PiholeRequest) -> PiholeReply {
    let body: [String: Any]
    switch domainBody(request) {
    case .failure(let error): return error.reply
    case .success(let value): body = value
    }
    var names: [String]
    if let one = body["domain"] as? String {
      names = [one]
    } else if let many = body["domain"] as? [String], !many.isEmpty {
      names = many
    } else {
      return .error(400, "bad_request", "No \"domain\" string or array in body data")
    }
    if kind == "regex" {
      for name in names {
        if let hint = Self.regexProblem(name) {
          return .error(400, "regex_error", "Regex validation failed", hint: hint)
        }
      }
    } else {
      names = names.map { $0.lowercased() }
    }
    let comment = body["comment"] as? String
    let groups = (body["groups"] as? [Int]) ?? [0]
    let enabled = (body["enabled"] as? Bool) ?? true
    let time = timestamp
    let (errors, success, rules) = state.withLock { state in
      var errors: [(String, String)] = []
      var success: [String] = []
      var rules: [DomainRule] = []
      for name in names {
        if kind == "exact", name.isEmpty || name.contains(where: { $0 == " " || $0 == "/" }) {
          errors.append((name, "Invalid domain"))
          continue
        }
        if let existing = state.domains.first(where: { $0.domain == name && $0.type == type && $0.kind == kind }) {
          errors.append((name, "UNIQUE constraint failed: domainlist.domain, domainlist.type"))
          rules.append(existing)
          continue
        }
        let rule = DomainRule(
          type: type, kind: kind, domain: name, comment: comment, enabled: enabled, id: state.nextDomainID,
          groups: groups, dateAdded: time, dateModified: time)
        state.nextDomainID += 1
        state.domains.append(rule)
        rules.append(rule)
        success.append(name)
      }
      return (errors, success, rules)
    }
    return .json(
      201,
      [
        ("domains", .array(rules.map(Self.json))),
        ("processed", Self.processed(errors: errors, success: success)),
      ],
      headers: [("Location", "/api/domains/\(type)/\(kind)/\(names.last!)")])
  }

  func putDomain(type: String, kind: String, domain: String, _ request: PiholeRequest) -> PiholeReply {
    let body: [String: Any]
    switch domainBody(request) {
    case .failure(let error): return error.reply
    case .success(let value): body = value
    }
    // Observed: a body naming another type or kind creates a second entry rather than moving this one.
    let newType = (body["type"] as? String).flatMap { ["allow", "deny"].contains($0) ? $0 : nil } ?? type
    let newKind = (body["kind"] as? String).flatMap { ["exact", "regex"].contains($0) ? $0 : nil } ?? kind
    if newKind == "regex", let hint = Self.regexProblem(domain) {
      return .error(400, "regex_error", "Regex validation failed", hint: hint)
    }
    let time = timestamp
    let rule = state.withLock { state in
      let index: Int
      if let found = state.domains.firstIndex(where: {
        $0.domain == domain && $0.type == newType && $0.kind == newKind
      }) {
        index = found
      } else {
        state.domains.append(
          DomainRule(
            type: newType, kind: newKind, domain: domain, comment: nil, enabled: true, id: state.nextDomainID,
            groups: [0], dateAdded: time, dateModified: time))
        state.nextDomainID += 1
        index = state.domains.count - 1
      }
      if body.keys.contains("comment") { state.domains[index].comment = body["comment"] as? String }
      if let groups = body["groups"] as? [Int] { state.domains[index].groups = groups }
      if let enabled = body["enabled"] as? Bool { state.domains[index].enabled = enabled }
      state.domains[index].dateModified = time
      return state.domains[index]
    }
    return .json(
      200,
      [
        ("domains", .array([Self.json(rule)])),
        ("processed", Self.processed(errors: [], success: [domain])),
      ])
  }

  func deleteDomain(type: String, kind: String, domain: String) -> PiholeReply {
    let removed = state.withLock { state in
      let before = state.domains.count
      state.domains.removeAll { $0.domain == domain && $0.type == type && $0.kind == kind }
      return state.domains.count < before
    }
    return removed
      ? .noContent : .error(404, "not_found", "Not found", hint: "/api/domains/\(type)/\(kind)/\(domain)")
  }

  func batchDeleteDomains(_ request: PiholeRequest) -> PiholeReply {
    let items: [[String: Any]]
    switch jsonBody(request) {
    case .failure(let error): return error.reply
    case .success(let value):
      guard let array = value as? [[String: Any]] else {
        return .error(400, "bad_request", "Invalid request: Body needs to be an array of objects")
      }
      items = array
    }
    let keys = items.compactMap { item -> (String, String?, String?)? in
      guard let domain = item["item"] as? String else { return nil }
      return (domain, item["type"] as? String, item["kind"] as? String)
    }
    state.withLock { state in
      for (domain, type, kind) in keys {
        state.domains.removeAll {
          $0.domain == domain && (type == nil || $0.type == type) && (kind == nil || $0.kind == kind)
        }
      }
    }
    return .noContent
  }
}
