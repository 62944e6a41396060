import Foundation

/// Reads the input as every Pi-hole reply SaneHosts decodes, through the client's own reading code: the
/// lenient `JSONValue` reader of Sources/Pihole/PiholeModels.swift (lists, domains, processed items) and
/// `PiholeReply` of Sources/Pihole/PiholeReply.swift (sessions, failures, search, summary, gravity log).
/// Both files are compiled here from the main package. Any bytes must give a value or a `PiholeError`
/// with a message, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Data(bytes: $0, count: size) } ?? Data()
  // Sessions and failures, as PiholeClient reads them, for the statuses a Pi-hole answers with.
  for status in [200, 400, 401, 403, 404, 429, 500] {
    for passwordGiven in [true, false] {
      switch PiholeReply.login(status: status, body: bytes, passwordGiven: passwordGiven) {
      case .success(let sid): check(status == 200, "a \(status) opened a session \(sid ?? "nil")")
      case .failure(let error):
        check(error.errorDescription?.isEmpty == false, "\(error) has no message")
        check(printable(error.errorDescription ?? ""), "control character in \(error)")
      }
    }
    let failure = PiholeReply.failure(status: status, body: bytes)
    check(failure.errorDescription?.isEmpty == false, "\(failure) has no message")
    check(printable(failure.errorDescription ?? ""), "control character in \(failure)")
  }
  let object: [String: Any]
  do {
    object = try JSONValue.object(bytes)
  } catch {
    _ = error.localizedDescription
    return 0
  }
  // GET lists, GET domains: no text read from a reply may carry a control character to a terminal.
  let lists = (object["lists"] as? [[String: Any]] ?? []).compactMap(JSONValue.list)
  for list in lists {
    _ = list.statusText
    for text in [list.address, list.type, list.comment ?? ""] { check(printable(text), "control character in \(text)") }
  }
  for domain in (object["domains"] as? [[String: Any]] ?? []).compactMap(JSONValue.domain) {
    for text in [domain.domain, domain.kind, domain.comment ?? ""] {
      check(printable(text), "control character in \(text)")
    }
  }
  for line in PiholeReply.logLines(bytes) { check(printable(line), "control character in the log line \(line)") }
  // POST lists / domains.
  _ = JSONValue.processed(object)
  // GET search, and the summary's three replies, as the client reads them.
  _ = PiholeReply.search(object, name: "example.com").blocks
  let summary = PiholeReply.summary(version: object, blocking: object, stats: object)
  // The models are Codable too (the dashboard's JSON): encoding what was read must work.
  do {
    _ = try JSONEncoder().encode(lists)
    _ = try JSONEncoder().encode(summary)
  } catch {
    fatalError("a decoded model does not encode: \(error)")
  }
  return 0
}

/// Whether text is free of control characters (what a terminal would act on).
private func printable(_ text: String) -> Bool { !text.unicodeScalars.contains(where: JSONValue.isControl) }

/// Traps with the message when the condition fails; unlike `precondition`, the message is kept in
/// release builds, so libFuzzer's crash report says which property broke.
private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() { fatalError(message()) }
}
