import Apply
import Blocklists
import Downloads
import Foundation
import Store
import TestSupport
import Testing
import Updates

@testable import UseCases

/// A store with file sources, updated for real (file:// downloads, the updater's parse and merge).
struct UpdatedStore {
  let directory: TemporaryDirectory
  let store: Store

  init() throws {
    directory = try TemporaryDirectory(prefix: "sanehosts-usecases")
    store = try Store.open(DataDirectory(url: directory.file("data")))
  }

  /// Writes a list and adds it to the active profile as a file source.
  func add(_ text: String, key: String) throws {
    let file = directory.file("\(key).txt")
    try Data(text.utf8).write(to: file)
    try store.addSource(NewSource(location: file, key: key))
  }

  /// Runs an update of the active profile.
  @discardableResult
  func update(_ options: Updater.Options = Updater.Options()) async throws -> UpdateSummary {
    try await DownloadManager.withManager(
      configuration: DownloadConfiguration(temporaryDirectory: store.directory.staging)
    ) { manager in
      try await Updater(store: store, client: manager).update(options: options)
    }
  }

  func remove() { directory.remove() }
}

@Suite("Why a name is blocked")
struct ExplainerTests {
  /// Three lists in three formats, seeded: names, subdomains of other names, repeats and junk.
  static func lists(seed: UInt64) -> [(key: String, text: String)] {
    var state = seed
    func next(_ bound: UInt64) -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (state >> 33) % bound
    }
    func name() -> String {
      let base = "d\(next(300)).website"
      return next(3) == 0 ? "s\(next(4)).\(base)" : base
    }
    var hosts = "# hosts\n"
    var adblock = "! adblock\n[Adblock Plus 2.0]\n"
    var domains = "# domains\r\n"
    for _ in 0..<400 {
      hosts += next(9) == 0 ? "0.0.0.0 \(name()) \(name())\n" : "0.0.0.0 \(name())\n"
      adblock += next(11) == 0 ? "##.banner\n" : "||\(name())^\n"
      domains += "\(name())\r\n"
    }
    return [("hosts-list", hosts), ("adblock-list", adblock), ("domains-list", domains)]
  }

  /// Each list's names with their first line, read without the engine.
  static func membership(_ text: String) -> [String: (line: Int, text: String)] {
    var first: [String: (Int, String)] = [:]
    // Split as bytes: "\r\n" is one Character, which a split on "\n" would not cut.
    for (index, raw) in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
      let line = String(decoding: raw.last == 0x0D ? raw.dropLast() : raw[...], as: UTF8.self)
      if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("!") || line.hasPrefix("[") { continue }
      var names: [String]
      if line.hasPrefix("||") {
        names = [String(line.dropFirst(2).dropLast())]
      } else if line.hasPrefix("0.0.0.0 ") {
        names = line.split(separator: " ").dropFirst().map(String.init)
      } else {
        names = [line]
      }
      for name in names where first[name] == nil { first[name] = (index + 1, line) }
    }
    return first
  }

  @Test("Every listing, line and verdict agrees with list membership computed without the engine")
  func againstIndependentMembership() async throws {
    let harness = try UpdatedStore()
    defer { harness.remove() }
    let lists = Self.lists(seed: 42)
    for list in lists { try harness.add(list.text, key: list.key) }
    try harness.store.addRule("=d7.website", action: .allow)
    try harness.store.addRule("d8.website", action: .allow)
    try harness.store.addRule("denied.website", action: .deny)
    try await harness.update()

    let members = lists.map { ($0.key, Self.membership($0.text)) }
    var queries = (0..<300).map { "d\($0).website" } + (0..<300).map { "s\($0 % 4).d\($0).website" }
    queries += ["x.s1.d7.website", "denied.website", "sub.denied.website", "d8.website", "s0.d8.website"]
    let answer = try await Explainer(store: harness.store).explain(queries)
    #expect(answer.sources == lists.map(\.key))
    let allow: (String) -> Bool = { $0 == "d7.website" || $0 == "d8.website" || $0.hasSuffix(".d8.website") }

    // The engine's compiled profile, for the verdict.
    let compiled = try await ProfileList.compile(profile: nil, in: harness.store).list
    for (query, explanation) in zip(queries, answer.names) {
      let chain = Explainer.selfAndParents(query)
      var expected: [String] = []
      for candidate in chain {
        for (key, names) in members {
          if let found = names[candidate] { expected.append("\(key) \(candidate) \(found.line) \(found.text)") }
        }
      }
      let got = explanation.listings.map { "\($0.source) \($0.matched) \($0.line ?? 0) \($0.text ?? "")" }
      #expect(Set(got) == Set(expected), "\(query)")
      #expect(got.count == expected.count, "\(query)")

      let listed = members.contains { $0.1[query] != nil } || query == "denied.website"
      let present: (String) -> Bool = { name in
        (members.contains { $0.1[name] != nil } || name == "denied.website") && !allow(name)
      }
      let verdict: Explanation.Verdict =
        if present(query) {
          .blocked
        } else if chain.dropFirst().contains(where: present) {
          .coveredByParent
        } else if listed && allow(query) {
          .allowed
        } else {
          .notBlocked
        }
      #expect(explanation.verdict == verdict, "\(query)")
      #expect((explanation.verdict == .blocked) == compiled.blocks(query), "\(query) against the compiled profile")
      let hosts = explanation.outputs.first { $0.format == "hosts" }
      #expect((hosts?.written == .asItself) == present(query), "\(query)")
    }
    let covered = try #require(answer.names.first { $0.query == "sub.denied.website" })
    #expect(covered.outputs.first { $0.format == "dnsmasq" }?.parent == "denied.website")
    let allowed = try #require(answer.names.first { $0.query == "d8.website" })
    #expect(allowed.rules.contains { $0.allows && $0.rule == "d8.website" && $0.decides })
  }

  @Test("Bad input: an unknown name, a Unicode name in both forms, an invalid name with the validator's reason")
  func badInput() async throws {
    let harness = try UpdatedStore()
    defer { harness.remove() }
    try harness.add("0.0.0.0 xn--bcher-kva.website\n0.0.0.0 co.uk\n", key: "idn")
    try await harness.update()
    let answer = try await Explainer(store: harness.store).explain(
      ["unknown.website", "BÜCHER.website.", "bad_name!", "co.uk", "a.co.uk"])
    #expect(answer.names[0].verdict == .notBlocked)
    #expect(answer.names[0].summary.contains("listed by no source"))
    #expect(answer.names[1].name == "xn--bcher-kva.website")
    #expect(answer.names[1].unicode == "bücher.website")
    #expect(answer.names[1].verdict == .blocked)
    #expect(answer.names[1].listings.first?.line == 1)
    #expect(answer.names[2].verdict == .invalid)
    #expect(answer.names[2].invalidReason == RejectReason.invalidCharacter.summary)
    // A public suffix is blocked exactly in hosts output and left out of covering formats; it covers nothing.
    #expect(answer.names[3].publicSuffix)
    #expect(answer.names[3].outputs.first { $0.format == "hosts" }?.written == .asItself)
    #expect(answer.names[3].outputs.first { $0.format == "unbound" }?.written == .leftOut)
    #expect(answer.names[4].verdict == .notBlocked)
  }

  @Test("A copy whose block set file is missing is compiled once and then explained the same")
  func missingFile() async throws {
    let harness = try UpdatedStore()
    defer { harness.remove() }
    try harness.add("# x\n0.0.0.0 a.website\n", key: "one")
    try await harness.update()
    let before = try await Explainer(store: harness.store).explain(["a.website"])
    let lists = try FileManager.default.contentsOfDirectory(
      at: harness.store.directory.lists, includingPropertiesForKeys: nil)
    for file in lists where file.pathExtension == "blockset" { try FileManager.default.removeItem(at: file) }
    let after = try await Explainer(store: harness.store).explain(["a.website"])
    #expect(after == before)
    #expect(after.names[0].listings.first?.line == 2)
  }

  @Test("The deciding rule is the one the engine applies; RPZ is not covered by a parent too long for the zone")
  func rulesAndZone() async throws {
    let harness = try UpdatedStore()
    defer { harness.remove() }
    let label = String(repeating: "p", count: 60)
    let parent = "\(label).\(label).\(label).\(label[...String.Index(utf16Offset: 50, in: label)]).website"
    try harness.add("0.0.0.0 \(parent)\n0.0.0.0 x.website\n", key: "long")
    try harness.store.addRule("example.org", action: .deny)
    try harness.store.addRule("ads.example.org", action: .deny)
    try harness.store.addRule("*.x.website", action: .allow)
    try harness.store.addRule("=a.x.website", action: .allow)
    try await harness.update()
    let answer = try await Explainer(store: harness.store).explain(["ads.example.org", "a.x.website", "s.\(parent)"])
    #expect(answer.compiledCurrent)
    #expect(answer.names[0].summary == "blocked by your rule ads.example.org")
    #expect(answer.names[0].rules.filter(\.decides).map(\.rule) == ["ads.example.org"])
    // Exact allow rules come before wildcard ones in the engine, whatever order they were added in.
    #expect(answer.names[1].rules.filter(\.decides).map(\.rule) == ["=a.x.website"])
    let covered = answer.names[2]
    #expect(covered.outputs.first { $0.format == "dnsmasq" }?.written == .coveredByParent)
    #expect(covered.outputs.first { $0.format == "rpz" }?.written == .notWritten)
  }

  @Test(
    "Regression: an exception is quoted as the compiled file holds it (why quoted `doubleclick.net CNAME .` for a name the file lets through with `*.doubleclick.net CNAME rpz-passthru.`)"
  )
  func exceptionQuotedAsWritten() async throws {
    let harness = try UpdatedStore()
    defer { harness.remove() }
    try harness.add("0.0.0.0 doubleclick.net\n0.0.0.0 ads.website\n", key: "list")
    try harness.store.addRule("*.doubleclick.net", action: .allow)
    try harness.store.addRule("=keep.ads.website", action: .allow)
    try await harness.update()
    let list = try await ProfileList.plan(profile: nil, in: harness.store).load(from: harness.store).list
    let answer = try await Explainer(store: harness.store).explain(["ad.doubleclick.net", "keep.ads.website"])
    var checked = 0
    for explanation in answer.names {
      for output in explanation.outputs where output.written == .excepted {
        let format = try #require(OutputFormat(rawValue: output.format))
        var sink = ByteSink()
        _ = try Renderer(format: format).render(list, to: &sink)
        let lines = Set(String(decoding: sink.memory, as: UTF8.self).split(separator: "\n").map(String.init))
        let reason = try #require(output.reason)
        let quoted = String(reason[reason.range(of: ": ")!.upperBound...])
        #expect(
          lines.contains(quoted), "\(explanation.name) in \(output.format): “\(quoted)” is not a line of the file")
        #expect(Renderer.letsThrough(quoted), "\(quoted)")
        checked += 1
      }
    }
    #expect(checked >= 4)
  }

  @Test(
    "Regression: a subdomains-only deny rule under a listed parent: the parent's entry blocks the subdomains in wildcard and unbound output (why said they could not say the rule and did not block)"
  )
  func subdomainsRuleUnderListedParent() async throws {
    let harness = try UpdatedStore()
    defer { harness.remove() }
    try harness.add("0.0.0.0 d7.website\n", key: "list")
    try harness.store.addRule("*.d7.website", action: .deny)
    try await harness.update()
    let answer = try await Explainer(store: harness.store).explain(["s0.d7.website"])
    let outputs = Dictionary(uniqueKeysWithValues: answer.names[0].outputs.map { ($0.format, $0) })
    for format in ["wildcard", "unbound", "dnsmasq", "adblock", "rpz"] {
      #expect(outputs[format]?.written == .coveredByParent, "\(format)")
      #expect(outputs[format]?.parent == "d7.website", "\(format)")
    }
    #expect(outputs["hosts"]?.written == .notWritten)
  }

  @Test("A source whose saved copy cannot be read is named, not silently skipped")
  func unreadableCopy() async throws {
    let harness = try UpdatedStore()
    defer { harness.remove() }
    try harness.add("0.0.0.0 a.website\n", key: "gone")
    try await harness.update()
    let lists = try FileManager.default.contentsOfDirectory(
      at: harness.store.directory.lists, includingPropertiesForKeys: nil)
    for file in lists { try FileManager.default.removeItem(at: file) }
    let answer = try await Explainer(store: harness.store).explain(["a.website"])
    #expect(answer.unreadable == ["gone"])
    #expect(answer.sources.isEmpty)
    try harness.store.addRule("a.website", action: .allow)
    #expect(try await Explainer(store: harness.store).explain(["a.website"]).compiledCurrent == false)
  }
}
