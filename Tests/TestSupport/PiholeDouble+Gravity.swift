import Foundation
import Locking

extension PiholeDouble {
  /// `POST /api/action/gravity`: a chunked text log, then (the daemon's bug) raw JSON after the last chunk.
  func gravity() -> PiholeReply {
    guard configuration.destructiveActions else {
      return .error(
        403, "forbidden", "Destructive actions are disabled", hint: "webserver.api.allow_destructive is false")
    }
    let clock = ContinuousClock()
    let start = clock.now
    let time = timestamp
    let lists = state.withLock { state in
      for index in state.lists.indices where state.lists[index].enabled {
        let address = state.lists[index].address
        if state.failingAddresses.contains(address) {
          // Observed: a list whose URL answers 404 is marked 3 and keeps nothing.
          state.lists[index].domains = []
          state.lists[index].number = 0
          state.lists[index].status = 3
          state.lists[index].dateUpdated = time
          continue
        }
        let domains = state.contents[address] ?? state.lists[index].domains
        state.lists[index].status = domains == state.lists[index].domains ? 2 : 1
        state.lists[index].domains = domains
        state.lists[index].number = domains.count
        state.lists[index].abpEntries = domains.filter { $0.hasPrefix("||") }.count
        state.lists[index].dateUpdated = time
      }
      state.gravityRuns += 1
      state.lastGravity = time
      // FTL loads the new database after the log ends: writes fail for a moment.
      let window = configuration.readOnlyAfterGravity.components
      state.readOnlyUntil = now + Double(window.seconds) + Double(window.attoseconds) / 1e18
      return state.lists
    }
    let erase = "\r\u{1B}[K"
    var lines = [
      "  [i] Neutrino emissions detected...\n",
      "  [i] Pulling blocklist source list into range...\(erase)  [✓] Pulling blocklist source list into range\n\n",
      "  [i] Preparing new gravity database...\(erase)  [✓] Preparing new gravity database\n",
      "  [i] Creating new gravity databases...\(erase)  [✓] Creating new gravity databases\n",
      "  [i] Using libz compression\n\n",
    ]
    for list in lists where list.enabled {
      lines.append("  [i] Target: \(list.address)\n")
      if list.status == 3 {
        lines.append("  [i] Status: Pending...\(erase)  [✗] Status: Not found\n")
        lines.append("  [✗] List download failed: no cached list available\n\n")
        continue
      }
      lines.append("  [i] Status: Pending...\(erase)  [✓] Status: Retrieval successful\n")
      lines.append("  [i] Imported \(list.number) domains\n\n")
    }
    let total = lists.filter { $0.enabled && $0.type == "block" }.reduce(0) { $0 + $1.number }
    let unique = Set(lists.filter { $0.enabled && $0.type == "block" }.flatMap(\.domains)).count
    lines += [
      "  [i] Building tree...\(erase)  [✓] Building tree\n",
      "  [i] Swapping databases...\(erase)  [✓] Swapping databases\n",
      "  [✓] The old database remains available\n",
      "  [i] Number of gravity domains: \(total) (\(unique) unique domains)\n",
      "  [i] Number of exact denied domains: \(domainRules.filter { $0.type == "deny" && $0.kind == "exact" }.count)\n",
      "  [i] Number of regex denied filters: \(domainRules.filter { $0.type == "deny" && $0.kind == "regex" }.count)\n",
      "  [i] Number of exact allowed domains: \(domainRules.filter { $0.type == "allow" && $0.kind == "exact" }.count)\n",
      "  [i] Number of regex allowed filters: \(domainRules.filter { $0.type == "allow" && $0.kind == "regex" }.count)\n",
      "  [i] Cleaning up stray matter...\(erase)  [✓] Cleaning up stray matter\n\n",
      "  [✓] Done.\n",
    ]
    let elapsed = (clock.now - start).components
    let took = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    let status = PiholeJSON.object([("status", .string("success")), ("took", .double(max(took, 0.000_01)))])
    return PiholeReply(
      status: 200, headers: [("Content-Type", "text/plain")], chunks: lines.map { Array($0.utf8) },
      trailing: status.bytes)
  }
}
