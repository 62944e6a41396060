import Dashboard
import Downloads
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Store
import TestSupport
import Testing
import Updates

@Suite("JSON API routes (in-process)")
struct DashboardAPITests {
  @Test("Sources: add by URL and by catalog id, refuse files and bad input with a named error, toggle, remove")
  func sources() async throws {
    try await DashboardHarness.with { harness in
      let csrf = harness.dashboard.csrfToken
      try await harness.routes { client async throws in
        let added = try await client.post(
          "/api/sources", json: #"{"url":"http://127.0.0.1:9/ads.txt","key":"ads","format":"hosts"}"#, csrf: csrf)
        #expect(added.status == .created, "\(added.text)")
        #expect(added.json?["key"] as? String == "ads")
        #expect(added.json?["format"] as? String == "hosts")
        let catalog = try await client.post("/api/sources", json: #"{"catalog":"stevenblack-unified"}"#, csrf: csrf)
        #expect(catalog.status == .created, "\(catalog.text)")
        // Again: there already, nothing changes (as `sources add` says), the source as it is.
        let again = try await client.post("/api/sources", json: #"{"catalog":"stevenblack-unified"}"#, csrf: csrf)
        #expect(again.status == .created && again.json?["key"] as? String == catalog.json?["key"] as? String)
        #expect((try await client.get("/api/sources").jsonArray ?? []).count == 2)
        let file = try await client.post("/api/sources", json: #"{"url":"/etc/passwd"}"#, csrf: csrf)
        #expect(file.status == .badRequest)
        #expect(
          file.json?["error"] as? String
            == "\"/etc/passwd\" is not an http(s) URL. The dashboard adds lists by URL or catalog id; add a local file with `sanehosts sources add PATH`."
        )
        let format = try await client.post(
          "/api/sources", json: #"{"url":"http://x.website/a","format":"xml"}"#, csrf: csrf)
        #expect(format.status == .badRequest && format.text.contains("xml"))
        let insecure = try await client.post("/api/sources", json: #"{"url":"http://example.org/list"}"#, csrf: csrf)
        #expect(insecure.status == .badRequest)
        #expect((insecure.json?["error"] as? String)?.contains("uses plain http to another machine") == true)
        let unknown = try await client.post("/api/sources", json: #"{"catalog":"nope"}"#, csrf: csrf)
        #expect(unknown.status == .notFound && unknown.text.contains("nope"))
        let broken = try await client.post("/api/sources", json: #"{"url": 5}"#, csrf: csrf)
        #expect(broken.status == .badRequest && broken.text.contains("url"))

        let disabled = try await client.post("/api/sources/ads/enabled", json: #"{"enabled":false}"#, csrf: csrf)
        #expect(disabled.status == .ok)
        let listed = try await client.get("/api/sources").jsonArray ?? []
        #expect(listed.count == 2)
        #expect(listed.first { $0["key"] as? String == "ads" }?["enabled"] as? Bool == false)
        #expect(try await client.post("/api/sources/ads/remove", csrf: csrf).status == .ok)
        #expect(try await client.post("/api/sources/ads/remove", csrf: csrf).status == .notFound)
        #expect(try await client.get("/api/sources").jsonArray?.count == 1)
      }
    }
  }

  @Test("Rules, profiles and presets; settings are validated and never hold a secret")
  func rulesProfilesSettings() async throws {
    try await DashboardHarness.with { harness in
      let csrf = harness.dashboard.csrfToken
      try await harness.routes { client async throws in
        #expect(
          try await client.post("/api/rules", json: #"{"kind":"allow","pattern":"ok.website"}"#, csrf: csrf).status
            == .created)
        let badKind = try await client.post("/api/rules", json: #"{"kind":"maybe","pattern":"x.website"}"#, csrf: csrf)
        #expect(badKind.status == .badRequest && badKind.text.contains("maybe"))
        let badName = try await client.post("/api/rules", json: #"{"kind":"deny","pattern":"<b>.website"}"#, csrf: csrf)
        #expect(badName.status == .badRequest)
        #expect(try await client.get("/api/rules").jsonArray?.count == 1)
        #expect(
          try await client.post("/api/rules/remove", json: #"{"kind":"allow","pattern":"ok.website"}"#, csrf: csrf)
            .status == .ok)

        #expect(try await client.post("/api/profiles", json: #"{"name":"kids"}"#, csrf: csrf).status == .created)
        #expect(try await client.post("/api/profiles/kids/use", csrf: csrf).status == .ok)
        #expect(try await client.get("/api/status").json?["profile"] as? String == "kids")
        let preset = try await client.post("/api/presets/essentials", csrf: csrf)
        #expect(preset.status == .created)
        #expect(((preset.json?["added"] as? [String]) ?? []).count > 0)
        #expect(try await client.post("/api/presets/nope", csrf: csrf).status == .notFound)

        let saved = try await client.post(
          "/api/settings", json: #"{"probe":"dns","resolver":"127.0.0.1:5353","timeout":1.5,"target":"unbound"}"#,
          csrf: csrf)
        #expect(saved.status == .ok)
        #expect(try await client.get("/api/settings").json?["resolver"] as? String == "127.0.0.1:5353")
        // A partial change keeps the other fields (the Test page saves probe, server and timeout only).
        let partial = try await client.post("/api/settings", json: #"{"probe":"system","timeout":"3"}"#, csrf: csrf)
        #expect(partial.status == .ok, "\(partial.text)")
        let saved2 = try await client.get("/api/settings").json
        #expect(saved2?["probe"] as? String == "system" && saved2?["target"] as? String == "unbound")
        #expect(saved2?["timeout"] as? Double == 3 && saved2?["resolver"] as? String == "127.0.0.1:5353")
        let bad = try await client.post(
          "/api/settings", json: #"{"probe":"carrier-pigeon","resolver":"","timeout":1,"target":"hosts"}"#, csrf: csrf)
        #expect(bad.status == .badRequest && bad.text.contains("carrier-pigeon"))
      }
    }
  }

  @Test("Apply: the preview writes nothing; apply writes the section, keeps the user's lines, and restore undoes it")
  func applyAndRestore() async throws {
    try await DashboardHarness.with { harness in
      let csrf = harness.dashboard.csrfToken
      let original = try String(contentsOf: harness.hostsFile, encoding: .utf8)
      try await harness.routes { client async throws in
        let nothing = try await client.post("/api/apply/preview", json: #"{"target":"hosts"}"#, csrf: csrf)
        #expect(nothing.status == .badRequest && nothing.text.contains("no enabled source"), "\(nothing.text)")
        _ = try await client.post("/api/rules", json: #"{"kind":"deny","pattern":"ads.website"}"#, csrf: csrf)

        let preview = try await client.post("/api/apply/preview", json: #"{"target":"hosts"}"#, csrf: csrf)
        #expect(preview.status == .ok, "\(preview.text)")
        #expect((preview.json?["diff"] as? String)?.contains("+ 0.0.0.0 ads.website") == true)
        #expect(try String(contentsOf: harness.hostsFile, encoding: .utf8) == original)

        let applied = try await client.post("/api/apply", json: #"{"target":"hosts"}"#, csrf: csrf)
        #expect(applied.status == .ok, "\(applied.text)")
        let after = try String(contentsOf: harness.hostsFile, encoding: .utf8)
        #expect(after.hasPrefix(original))
        #expect(after.contains("0.0.0.0 ads.website"))
        let backups = try await client.get("/api/backups?target=hosts").jsonArray ?? []
        #expect(backups.count == 1)
        let id = try #require(backups.first?["id"] as? String)
        let restored = try await client.post("/api/restore", json: #"{"target":"hosts","id":"\#(id)"}"#, csrf: csrf)
        #expect(restored.status == .ok, "\(restored.text)")
        #expect(try String(contentsOf: harness.hostsFile, encoding: .utf8) == original)

        // A drop-in target writes into the configured folder, checked by the server's own checker when installed.
        let dropIn = try await client.post("/api/apply", json: #"{"target":"dnsmasq"}"#, csrf: csrf)
        #expect(dropIn.status == .ok, "\(dropIn.text)")
        let conf = harness.directory.file("dropins/sanehosts-dnsmasq.conf")
        #expect(try String(contentsOf: conf, encoding: .utf8).contains("server=/ads.website/"))
        #expect(try await client.post("/api/apply", json: #"{"target":"nginx"}"#, csrf: csrf).status == .badRequest)
        #expect(
          try await client.post("/api/restore", json: #"{"target":"hosts","id":"nope"}"#, csrf: csrf).status
            == .notFound)
      }
    }
  }

  @Test(
    "Apply verifies like apply --verify: a drop-in through the Test page's DNS server (here not reloaded), the hosts file only when it is /etc/hosts"
  )
  func applyVerifies() async throws {
    try await DashboardHarness.with { harness in
      let csrf = harness.dashboard.csrfToken
      try await DNSServerProcess.withCatchAll(directory: harness.directory.url) { server in
        try await harness.routes { client async throws in
          _ = try await client.post("/api/rules", json: #"{"kind":"deny","pattern":"ads.website"}"#, csrf: csrf)
          let unset = try await client.post("/api/apply", json: #"{"target":"dnsmasq"}"#, csrf: csrf)
          #expect(
            unset.json?["verificationNote"] as? String
              == "Not verified: set the DNS server that loads the drop-in on the Test page (DNS server), then apply again."
          )
          let hosts = try await client.post("/api/apply", json: #"{"target":"hosts"}"#, csrf: csrf)
          #expect((hosts.json?["verificationNote"] as? String)?.contains("reads /etc/hosts, not ") == true)
          _ = try await client.post(
            "/api/settings", json: #"{"resolver":"127.0.0.1:\#(server.port)","timeout":20}"#, csrf: csrf)
          // The catch-all does not load the drop-in: ads.website is still reachable there.
          let applied = try await client.post("/api/apply", json: #"{"target":"dnsmasq","force":true}"#, csrf: csrf)
          let verification = try #require(applied.json?["verification"] as? [String: Any], "\(applied.text)")
          #expect(verification["passed"] as? Bool == false)
          #expect(
            verification["summary"] as? String
              == "verification failed: 0/1 sampled names blocked, controls reachable")
          let miss = (verification["notBlocked"] as? [[String: Any]])?.first
          #expect(miss?["name"] as? String == "ads.website")
          #expect((miss?["cause"] as? String)?.hasPrefix("the server was not reloaded") == true)
        }
      }
    }
  }

  @Test("Without JavaScript a form posts, gets a redirect back, and errors come as a page")
  func forms() async throws {
    try await DashboardHarness.with { harness in
      let csrf = harness.dashboard.csrfToken
      try await harness.routes { client async throws in
        let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        let added = try await client.execute(
          uri: "/api/rules", method: .post, headers: form,
          body: ByteBuffer(string: "csrf=\(csrf)&kind=deny&pattern=form.website"))
        #expect(added.status == .seeOther)
        #expect(added.headers[.location] == "/sources")
        // Regression: the Traffic page's Allow form (no JavaScript) went to /sources; it comes back.
        let fromTraffic = try await client.execute(
          uri: "/api/rules", method: .post, headers: form,
          body: ByteBuffer(string: "csrf=\(csrf)&kind=allow&pattern=%3Dok.website&back=%2Ftraffic"))
        #expect(fromTraffic.headers[.location] == "/traffic")
        // Another site is never a place to go back to.
        let away = try await client.execute(
          uri: "/api/rules", method: .post, headers: form,
          body: ByteBuffer(string: "csrf=\(csrf)&kind=allow&pattern=%3Dok2.website&back=%2F%2Fevil.example"))
        #expect(away.headers[.location] == "/sources")
        let bad = try await client.execute(
          uri: "/api/rules", method: .post, headers: form,
          body: ByteBuffer(string: "csrf=\(csrf)&kind=deny&pattern=%3Cx%3E"))
        #expect(bad.status == .badRequest)
        #expect(bad.text.contains("<!doctype html>") && bad.text.contains("&lt;x&gt;") && !bad.text.contains("<x>"))
      }
    }
  }

  @Test("Unknown runs and bad ids are named errors; the session route gives scripts the CSRF token")
  func history() async throws {
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        #expect(try await client.get("/api/history").text == "[]")
        #expect(try await client.get("/api/history/abc").status == .badRequest)
        #expect(try await client.get("/api/history/42").status == .notFound)
        #expect(try await client.get("/api/test/result").status == .notFound)
        #expect(try await client.get("/api/diff?from=1").status == .badRequest)
        #expect(try await client.get("/api/session").json?["csrf"] as? String == harness.dashboard.csrfToken)
      }
    }
  }

  @Test("Why?, overlap, a source's diff and accepting a held copy, through the API and the pages")
  func health() async throws {
    try await DashboardHarness.with { harness in
      let store = try Store.open(harness.data)
      let file = harness.directory.file("list.txt")
      try Data((0..<20).map { "0.0.0.0 n\($0).website\n" }.joined().utf8).write(to: file)
      try store.addSource(NewSource(location: file, key: "list"))
      try await Self.update(store)
      try Data("0.0.0.0 n1.website\n".utf8).write(to: file)
      try await Self.update(store)  // held back: 1 name against 20
      let csrf = harness.dashboard.csrfToken
      try await harness.routes { client async throws in
        let why = try await client.get("/api/why?name=n3.website")
        #expect(why.status == .ok, "\(why.text)")
        #expect(why.text.contains("\"verdict\":\"blocked\""))
        let two = try await client.get("/api/why?name=n3.website&name=bad_name!")
        #expect(two.text.contains("\"verdict\":\"invalid\""))
        #expect(try await client.get("/api/why").status == .badRequest)
        let overlap = try await client.get("/api/overlap")
        #expect(overlap.text.contains("\"total\":20"))
        let diff = try await client.get("/api/sources/list/diff?held=1&limit=2")
        #expect(diff.text.contains("\"removedCount\":19"))
        #expect(try await client.get("/sources").text.contains("held back"))
        #expect(try await client.get("/sources/list/diff?held=1").text.contains("Accept this copy"))
        #expect(try await client.get("/why?name=n1.website").text.contains("verdict-blocked"))
        let accepted = try await client.post("/api/sources/list/accept", csrf: csrf)
        #expect(accepted.status == .ok, "\(accepted.text)")
        #expect(try await client.get("/api/sources/list/diff").text.contains("\"removedCount\":19"))
        #expect(try await client.post("/api/sources/list/accept", csrf: csrf).status == .badRequest)
      }
    }
  }

  static func update(_ store: Store) async throws {
    _ = try await DownloadManager.withManager(
      configuration: DownloadConfiguration(temporaryDirectory: store.directory.staging)
    ) { manager in try await Updater(store: store, client: manager).update() }
  }
}
