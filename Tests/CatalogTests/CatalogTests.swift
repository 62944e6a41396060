import Blocklists
import Catalog
import Foundation
import Testing

@Suite("The built-in catalog")
struct CatalogTests {
  let catalog = Catalog.builtIn
  static let presetIDs = ["essentials", "family-safe", "focus-mode", "privacy-shield", "kitchen-sink"]

  /// The package's root folder, found from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test("The embedded JSON decodes, and the file on disk decodes to the same catalog")
  func decodes() throws {
    #expect(catalog.version == 1)
    let file = Self.root.appendingPathComponent("Sources/Catalog/Resources/catalog.json")
    let decoded = try Catalog(json: Data(contentsOf: file))
    #expect(decoded == catalog)
  }

  @Test("Malformed JSON is rejected")
  func malformed() {
    #expect(throws: (any Error).self) { try Catalog(json: Data("{\"version\": 1}".utf8)) }
    #expect(throws: (any Error).self) { try Catalog(json: Data("not json".utf8)) }
  }

  @Test("It holds at least 40 sources")
  func size() {
    #expect(catalog.sources.count >= 40)
  }

  @Test("Source ids are unique")
  func uniqueIDs() {
    let ids = catalog.sources.map(\.id)
    let repeated = Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
    #expect(repeated.isEmpty)
    #expect(Set(catalog.categories.map(\.id)).count == catalog.categories.count)
  }

  @Test("Source URLs are unique, ignoring case of scheme and host and a trailing slash")
  func uniqueURLs() {
    func key(_ url: URL) -> String {
      var path = url.path(percentEncoded: true)
      while path.hasSuffix("/") { path.removeLast() }
      return
        "\(url.scheme?.lowercased() ?? "")://\(url.host()?.lowercased() ?? ""):\(url.port ?? 0)\(path)?\(url.query() ?? "")"
    }
    let repeated = Dictionary(grouping: catalog.sources, by: { key($0.url) }).filter { $0.value.count > 1 }
    #expect(repeated.isEmpty, "\(repeated.values.map { $0.map(\.id) })")
  }

  @Test(
    "Mirrors are https, on another host than the list, each once; a GitHub list's mirror is the same file through jsDelivr"
  )
  func mirrors() {
    for entry in catalog.sources {
      let mirrors = entry.mirrors ?? []
      #expect(Set(mirrors).count == mirrors.count, "\(entry.id)")
      for mirror in mirrors {
        #expect(mirror.scheme == "https" && mirror.host() != entry.url.host(), "\(entry.id): \(mirror)")
      }
      if entry.url.host() == "raw.githubusercontent.com" {
        let parts = entry.url.path().split(separator: "/", maxSplits: 3).map(String.init)
        #expect(
          mirrors.first?.absoluteString
            == "https://cdn.jsdelivr.net/gh/\(parts[0])/\(parts[1])@\(parts[2])/\(parts[3])",
          "\(entry.id)")
      }
    }
    #expect(catalog.sources.filter { $0.mirrors != nil }.count >= 30)
  }

  @Test("Ids are lowercase kebab-case, so commands can type them")
  func idShape() {
    let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
    for id in catalog.sources.map(\.id) + catalog.categories.map(\.id) + catalog.presets.map(\.id) {
      #expect(!id.isEmpty && id.allSatisfy(allowed.contains), "\(id)")
      #expect(!id.hasPrefix("-") && !id.hasSuffix("-") && !id.contains("--"), "\(id)")
    }
  }

  @Test("Every category a source uses exists, and every category has sources")
  func categories() {
    let known = Set(catalog.categories.map(\.id))
    for entry in catalog.sources {
      #expect(known.contains(entry.category), "\(entry.id) uses unknown category \(entry.category)")
      #expect(catalog.category(id: entry.category) != nil)
    }
    for category in catalog.categories {
      #expect(!catalog.entries(in: category.id).isEmpty, "\(category.id) has no sources")
    }
    #expect(catalog.entries(in: "ADS") == catalog.entries(in: "ads"))
    #expect(catalog.entries(in: "ads").allSatisfy { $0.category == "ads" })
    #expect(catalog.entries(in: "no-such-category").isEmpty)
  }

  @Test("Every list and home page is an https URL with a host")
  func https() {
    for entry in catalog.sources {
      #expect(entry.url.scheme == "https", "\(entry.id): \(entry.url)")
      #expect(entry.url.host()?.isEmpty == false, "\(entry.id): \(entry.url)")
      #expect(entry.homepage.scheme == "https", "\(entry.id): \(entry.homepage)")
    }
  }

  @Test("Every entry has a name, a licence, a description and a positive size estimate")
  func entryFields() {
    for entry in catalog.sources {
      #expect(!entry.name.isEmpty && !entry.licence.isEmpty && !entry.description.isEmpty, "\(entry.id)")
      #expect(entry.estimatedNames > 0, "\(entry.id)")
    }
  }

  @Test("Sources are sorted by category, then id")
  func sorted() {
    let order = catalog.sources.map { [$0.category, $0.id] }
    #expect(order == order.sorted { $0.lexicographicallyPrecedes($1) })
  }

  @Test("The presets are the five ids, in order, each extending the one before")
  func presets() {
    #expect(catalog.presets.map(\.id) == Self.presetIDs)
    #expect(catalog.presets.first?.extends == nil)
    for (previous, preset) in zip(catalog.presets, catalog.presets.dropFirst()) {
      #expect(preset.extends == previous.id, "\(preset.id)")
    }
  }

  @Test("Every list a preset adds exists, and no preset adds one an earlier preset has")
  func presetReferences() {
    var seen: Set<String> = []
    for preset in catalog.presets {
      #expect(!preset.adds.isEmpty, "\(preset.id)")
      for id in preset.adds {
        #expect(catalog.entry(id: id) != nil, "\(preset.id) adds unknown \(id)")
        #expect(seen.insert(id).inserted, "\(preset.id) adds \(id) again")
      }
    }
  }

  @Test("Presets are cumulative: each one's lists contain the previous one's, in the same order")
  func cumulative() throws {
    var previous: [Catalog.Entry] = []
    for preset in catalog.presets {
      let entries = catalog.entries(of: preset)
      #expect(Set(entries).isSuperset(of: previous), "\(preset.id)")
      #expect(Array(entries.prefix(previous.count)) == previous, "\(preset.id) keeps its ancestors' order")
      #expect(entries.count == previous.count + preset.adds.count, "\(preset.id)")
      #expect(Set(entries.map(\.id)).count == entries.count, "\(preset.id) has no repeats")
      previous = entries
    }
    let essentials = try #require(catalog.preset(id: "essentials"))
    #expect(catalog.entries(of: essentials).map(\.id) == ["stevenblack-unified", "hagezi-light", "peter-lowe"])
    let kitchenSink = try #require(catalog.preset(id: "kitchen-sink"))
    #expect(catalog.entries(of: kitchenSink).count == catalog.presets.map(\.adds.count).reduce(0, +))
  }

  @Test("entries(of:) stops at a preset that extends itself in a loop")
  func presetCycle() {
    let a = Catalog.Preset(id: "a", name: "A", description: "", extends: "b", adds: ["x"])
    let b = Catalog.Preset(id: "b", name: "B", description: "", extends: "a", adds: ["y"])
    let entry = { (id: String) in
      Catalog.Entry(
        id: id, name: id, homepage: URL(string: "https://e.website")!, url: URL(string: "https://e.website/\(id)")!,
        format: .domains, category: "ads", licence: "MIT", estimatedNames: 1, description: "")
    }
    let looped = Catalog(categories: [], sources: [entry("x"), entry("y")], presets: [a, b])
    #expect(looped.entries(of: a).map(\.id) == ["y", "x"])
  }

  @Test("Presets are found by id or by name, ignoring case")
  func presetLookup() {
    #expect(catalog.preset(id: "FAMILY-SAFE")?.id == "family-safe")
    #expect(catalog.preset(id: "Family Safe")?.id == "family-safe")
    #expect(catalog.preset(id: "nonexistent") == nil)
  }

  @Test("entry(id:) ignores case; entry(url:) finds StevenBlack's unified list")
  func lookup() throws {
    #expect(catalog.entry(id: "StevenBlack-Unified")?.id == "stevenblack-unified")
    #expect(catalog.entry(id: "no-such-list") == nil)
    let url = try #require(URL(string: "https://raw.githubusercontent.com/StevenBlack/hosts/master/hosts"))
    let entry = try #require(catalog.entry(url: url))
    #expect(entry.id == "stevenblack-unified")
    #expect(entry.format == .hosts)
    #expect(catalog.entry(url: URL(string: "https://lists.website/unknown.txt")!) == nil)
  }

  @Test("The reference's defect is gone: no “tracking” list pointing at anudeepND's CoinMiner.txt")
  func referenceDuplicateFixed() {
    let coinMiner = catalog.sources.filter { $0.url.lastPathComponent.lowercased() == "coinminer.txt" }
    #expect(coinMiner.map(\.id) == ["anudeep-coinminer"])
    #expect(coinMiner.first?.category == "crypto-mining")
    #expect(catalog.entry(id: "anudeep-tracking") == nil)
  }

  @Test("scripts/check-catalog.py passes, when python3 is installed")
  func checkScript() throws {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    let python = (path.split(separator: ":").map { "\($0)/python3" } + ["/usr/bin/python3"])
      .first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let python else { return }  // No python3 here: the script cannot run; the tests above cover the data.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [Self.root.appendingPathComponent("scripts/check-catalog.py").path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
    #expect(text.contains("OK"), "\(text)")
  }
}
