import Foundation
import Locking

extension PiholeDouble {
  static let missingListType =
    "Invalid request: Specify type parameter (should be either \"allow\" or \"block\")"

  /// The `type` query parameter of a list request, or the daemon's 400 reply.
  private func listType(_ request: PiholeRequest) -> Result<String, PiholeError> {
    guard let type = request.query["type"], ["allow", "block"].contains(type) else {
      return .failure(PiholeError(.error(400, "bad_request", Self.missingListType)))
    }
    return .success(type)
  }

  static func json(_ list: List) -> PiholeJSON {
    .object([
      ("address", .string(list.address)), ("comment", .nullable(list.comment)), ("groups", .ints(list.groups)),
      ("enabled", .bool(list.enabled)), ("id", .int(list.id)), ("date_added", .int(list.dateAdded)),
      ("date_modified", .int(list.dateModified)), ("type", .string(list.type)),
      ("date_updated", .int(list.dateUpdated)), ("number", .int(list.number)),
      ("invalid_domains", .int(list.invalidDomains)), ("abp_entries", .int(list.abpEntries)),
      ("status", .int(list.status)),
    ])
  }

  static func processed(errors: [(String, String)], success: [String]) -> PiholeJSON {
    .object([
      ("errors", .array(errors.map { .object([("item", .string($0.0)), ("error", .string($0.1))]) })),
      ("success", .array(success.map { .object([("item", .string($0))]) })),
    ])
  }

  func getLists(address: String?, _ request: PiholeRequest) -> PiholeReply {
    let type = request.query["type"]
    let lists = state.withLock { $0.lists }.filter {
      (address == nil || $0.address == address) && (type == nil || $0.type == type)
    }
    return .json(200, [("lists", .array(lists.map(Self.json)))])
  }

  func postLists(_ request: PiholeRequest) -> PiholeReply {
    let type: String
    switch listType(request) {
    case .failure(let error): return error.reply
    case .success(let value): type = value
    }
    let body: [String: Any]
    switch jsonBody(request) {
    case .failure(let error): return error.reply
    case .success(let value):
      guard let object = value as? [String: Any] else {
        return .error(400, "bad_request", "Invalid request: Body needs to be a JSON object")
      }
      body = object
    }
    let addresses: [String]
    if let one = body["address"] as? String {
      addresses = [one]
    } else if let many = body["address"] as? [String], !many.isEmpty {
      addresses = many
    } else {
      return .error(400, "bad_request", "No \"address\" string or array in body data")
    }
    let comment = body["comment"] as? String
    let groups = (body["groups"] as? [Int]) ?? [0]
    let enabled = (body["enabled"] as? Bool) ?? true
    let time = timestamp
    let (errors, success, last) = state.withLock { state in
      var errors: [(String, String)] = []
      var success: [String] = []
      for address in addresses {
        guard !state.lists.contains(where: { $0.address == address && $0.type == type }) else {
          errors.append((address, "UNIQUE constraint failed: adlist.address, adlist.type"))
          continue
        }
        state.lists.append(
          List(
            address: address, type: type, comment: comment, enabled: enabled, id: state.nextListID, groups: groups,
            dateAdded: time, dateModified: time, dateUpdated: 0, number: 0, invalidDomains: 0, abpEntries: 0,
            status: 0, domains: []))
        state.nextListID += 1
        success.append(address)
      }
      // Observed: the reply lists only the last item of the request.
      let last = state.lists.first { $0.address == addresses.last && $0.type == type }
      return (errors, success, last)
    }
    return .json(
      201,
      [
        ("lists", .array(last.map { [Self.json($0)] } ?? [])),
        ("processed", Self.processed(errors: errors, success: success)),
      ], headers: [("Location", "/api/lists/\(addresses.last!)")])
  }

  func putList(address: String, _ request: PiholeRequest) -> PiholeReply {
    let type: String
    switch listType(request) {
    case .failure(let error): return error.reply
    case .success(let value): type = value
    }
    let body: [String: Any]
    switch jsonBody(request) {
    case .failure(let error): return error.reply
    case .success(let value):
      guard let object = value as? [String: Any] else {
        return .error(400, "bad_request", "Invalid request: Body needs to be a JSON object")
      }
      body = object
    }
    let time = timestamp
    let list = state.withLock { state in
      let index: Int
      if let found = state.lists.firstIndex(where: { $0.address == address && $0.type == type }) {
        index = found
      } else {
        state.lists.append(
          List(
            address: address, type: type, comment: nil, enabled: true, id: state.nextListID, groups: [0],
            dateAdded: time, dateModified: time, dateUpdated: 0, number: 0, invalidDomains: 0, abpEntries: 0,
            status: 0, domains: []))
        state.nextListID += 1
        index = state.lists.count - 1
      }
      if body.keys.contains("comment") { state.lists[index].comment = body["comment"] as? String }
      if let groups = body["groups"] as? [Int] { state.lists[index].groups = groups }
      if let enabled = body["enabled"] as? Bool { state.lists[index].enabled = enabled }
      state.lists[index].dateModified = time
      return state.lists[index]
    }
    return .json(
      200,
      [
        ("lists", .array([Self.json(list)])),
        ("processed", Self.processed(errors: [], success: [address])),
      ])
  }

  func deleteList(address: String, _ request: PiholeRequest) -> PiholeReply {
    let type: String
    switch listType(request) {
    case .failure(let error): return error.reply
    case .success(let value): type = value
    }
    let removed = state.withLock { state in
      let before = state.lists.count
      state.lists.removeAll { $0.address == address && $0.type == type }
      return state.lists.count < before
    }
    return removed ? .noContent : .error(404, "not_found", "Not found", hint: request.path)
  }

  func batchDeleteLists(_ request: PiholeRequest) -> PiholeReply {
    let items: [[String: Any]]
    switch jsonBody(request) {
    case .failure(let error): return error.reply
    case .success(let value):
      guard let array = value as? [[String: Any]] else {
        return .error(400, "bad_request", "Invalid request: Body needs to be an array of objects")
      }
      items = array
    }
    let pairs = items.compactMap { item -> (String, String?)? in
      guard let address = item["item"] as? String else { return nil }
      return (address, item["type"] as? String)
    }
    state.withLock { state in
      for (address, type) in pairs {
        state.lists.removeAll { $0.address == address && (type == nil || $0.type == type) }
      }
    }
    return .noContent
  }
}
