import Foundation
import NIOHTTP1
import TestSupport
import Testing

@Suite("Pi-hole double: gravity, search and info")
struct PiholeDoubleActionsTests {
  @Test func gravityStreamsALogThenWritesRawJSONAfterTheLastChunk() async throws {
    try await PiholeDouble.with { double in
      let (sid, _) = try await PiholeHTTP.login(double)
      double.addList("https://a.website/hosts", domains: ["ads.website"])
      double.addList("https://b.website/hosts")
      double.setContents(["x.website", "y.website", "z.website"], forAddress: "https://b.website/hosts")
      // Two pipelined requests on one connection: the second one's reply follows the stray JSON.
      let request =
        "POST /api/action/gravity HTTP/1.1\r\nHost: 127.0.0.1\r\nX-FTL-SID: \(sid)\r\nContent-Length: 0\r\n\r\n"
        + "GET /api/info/login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
      let text = String(decoding: try await PiholeHTTP.raw(port: double.port, request), as: UTF8.self)

      #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
      #expect(text.contains("Content-Type: text/plain\r\n"))
      #expect(text.contains("Transfer-Encoding: chunked\r\n"))
      #expect(text.contains("\r\u{1B}[K"))
      #expect(text.contains("  [i] Target: https://b.website/hosts\n"))
      #expect(text.contains("  [✓] Status: Retrieval successful\n"))
      #expect(text.contains("  [i] Number of gravity domains: 4 (4 unique domains)\n"))
      let stray = try #require(text.range(of: "\r\n0\r\n\r\n{\"status\":\"success\",\"took\":"))
      let next = try #require(text.range(of: "HTTP/1.1 200 OK\r\n", range: stray.upperBound..<text.endIndex))
      #expect(text[stray.upperBound..<next.lowerBound].hasSuffix("}"))
      #expect(text.contains(#"{"dns":true,"https_port":0,"took":"#))

      #expect(double.gravityRuns == 1)
      let updated = try #require(double.lists.last)
      #expect(updated.number == 3)
      #expect(updated.status == 1)  // new content downloaded: "updated" (2 is "unchanged")
      #expect(updated.dateUpdated > 0)
    }
  }

  @Test func gravityIsForbiddenWithoutDestructiveActions() async throws {
    try await PiholeDouble.with(.init(password: nil, destructiveActions: false)) { double in
      let reply = try await PiholeHTTP.send(double, .POST, "/api/action/gravity")
      #expect(reply.status == 403)
      #expect(reply.object("error")["key"] as? String == "forbidden")
      #expect(double.gravityRuns == 0)
    }
  }

  @Test func searchFindsRulesAndGravityEntriesWithTheDoubledTypeKey() async throws {
    try await PiholeDouble.with(.init(password: nil)) { double in
      double.addList("https://lists.website/ads", comment: "ads", domains: ["ads.website", "||tracker.website^"])
      double.addList("https://lists.website/more", domains: ["ads.website"])
      double.addList("https://lists.website/other", domains: ["other.website"])
      _ = try await PiholeHTTP.send(double, .POST, "/api/domains/deny/exact", body: #"{"domain":"ads.website"}"#)
      _ = try await PiholeHTTP.send(double, .POST, "/api/domains/deny/regex", body: #"{"domain":"^ads\\."}"#)
      _ = try await PiholeHTTP.send(double, .POST, "/api/domains/allow/regex", body: #"{"domain":"^nomatch$"}"#)

      let reply = try await PiholeHTTP.send(double, .GET, "/api/search/ads.website?partial=false&N=20")
      #expect(reply.status == 200)
      let search = reply.object("search")
      let gravity = try #require(search["gravity"] as? [[String: Any]])
      #expect(gravity.map { $0["address"] as? String } == ["https://lists.website/ads", "https://lists.website/more"])
      #expect(gravity.first?["domain"] as? String == "ads.website")
      #expect(gravity.first?["comment"] as? String == "ads")
      let item = #""domain":"ads.website","type":"block","address":"https://lists.website/ads","comment":"ads","#
      #expect(reply.text.contains(item))
      #expect(reply.text.components(separatedBy: #""type":"block""#).count - 1 == 4)
      #expect((search["domains"] as? [Any])?.count == 2)
      #expect(reply.object("search", "results", "domains")["exact"] as? Int == 1)
      #expect(reply.object("search", "results", "domains")["regex"] as? Int == 1)
      #expect(reply.object("search", "results", "gravity")["block"] as? Int == 2)
      #expect(reply.object("search", "results", "gravity")["allow"] as? Int == 0)
      #expect(reply.object("search", "results")["total"] as? Int == 4)
      #expect(reply.object("search", "parameters")["N"] as? Int == 20)
      #expect(reply.object("search", "parameters")["domain"] as? String == "ads.website")

      let abp = try await PiholeHTTP.send(double, .GET, "/api/search/tracker.website?partial=true&N=20")
      #expect(
        (abp.object("search")["gravity"] as? [[String: Any]])?.first?["domain"] as? String == "||tracker.website^")
    }
  }

  @Test func infoAndStatsDeriveFromTheState() async throws {
    try await PiholeDouble.with { double in
      double.addList("https://a.website/1", domains: ["a.website", "b.website"])
      double.addList("https://b.website/2", domains: ["c.website"])
      double.addList("https://c.website/3", type: "allow", domains: ["d.website"])
      let login = try await PiholeHTTP.send(double, .GET, "/api/info/login")
      #expect(login.status == 200)
      #expect(login.json["dns"] as? Bool == true)
      #expect(login.json["https_port"] as? Int == 0)

      let (sid, _) = try await PiholeHTTP.login(double)
      let headers = [("X-FTL-SID", sid)]
      #expect(try await PiholeHTTP.send(double, .GET, "/api/info/version").status == 401)
      let version = try await PiholeHTTP.send(double, .GET, "/api/info/version", headers: headers)
      #expect(version.object("version", "ftl", "local")["version"] as? String == "v6.4.1")
      #expect(version.object("version", "docker")["local"] is NSNull)
      let summary = try await PiholeHTTP.send(double, .GET, "/api/stats/summary", headers: headers)
      #expect(summary.object("gravity")["domains_being_blocked"] as? Int == 3)
      #expect(summary.object("queries")["total"] as? Int == 0)
      let ftl = try await PiholeHTTP.send(double, .GET, "/api/info/ftl", headers: headers)
      #expect(ftl.object("ftl", "database")["gravity"] as? Int == 3)
      #expect(ftl.object("ftl", "database")["lists"] as? Int == 3)
      #expect(ftl.object("ftl")["pid"] is Int)
    }
  }
}
