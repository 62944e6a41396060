import Blocklists
import Catalog
import Foundation
import Store
import TestSupport
import Testing

@Suite("Reading a new source")
struct NewSourceTests {
  let catalog = Catalog.builtIn

  @Test("A catalog id becomes the catalog entry, ignoring case")
  func catalogID() throws {
    let entry = try #require(catalog.entry(id: "stevenblack-unified"))
    for text in ["stevenblack-unified", "StevenBlack-Unified"] {
      let source = try NewSource.parse(text, catalog: catalog)
      #expect(source == NewSource(entry), "\(text)")
    }
    let source = NewSource(entry)
    #expect(source.location == entry.url)
    #expect(source.key == entry.id)
    #expect(source.name == entry.name)
    #expect(source.catalogID == entry.id)
    #expect(source.format == entry.format)
    #expect(source.category == entry.category)
  }

  @Test("A URL that is in the catalog becomes that entry")
  func catalogURL() throws {
    let source = try NewSource.parse(
      "https://raw.githubusercontent.com/StevenBlack/hosts/master/hosts", catalog: catalog)
    #expect(source.catalogID == "stevenblack-unified")
  }

  @Test("Any other http(s) URL is taken as it is, with nothing else filled in")
  func plainURL() throws {
    for text in ["https://lists.website/ads.txt", "http://127.0.0.1:8080/list", "HTTPS://Lists.Website/x"] {
      let source = try NewSource.parse(text, catalog: catalog)
      #expect(source.location.absoluteString == text)
      #expect(source.key == nil)
      #expect(source.name == nil)
      #expect(source.catalogID == nil)
      #expect(source.format == nil)
    }
  }

  @Test("A URL without a host is refused")
  func badURL() {
    for text in ["https://", "http:///path-only"] {
      #expect(throws: StoreError.invalid(value: text, reason: "is not a valid URL"), "\(text)") {
        try NewSource.parse(text)
      }
    }
  }

  @Test("A path, absolute or relative to the current directory, becomes a file URL")
  func path() throws {
    let temp = try TemporaryDirectory()
    defer { temp.remove() }
    let file = temp.file("my list.txt")
    try Data("0.0.0.0 a.website\n".utf8).write(to: file)

    let absolute = try NewSource.parse(file.path, catalog: catalog)
    #expect(absolute.location.isFileURL)
    #expect(absolute.location.path == file.path)
    #expect(absolute.catalogID == nil)

    let relative = try NewSource.parse("./sub/../my list.txt", catalog: catalog, currentDirectory: temp.url.path)
    #expect(relative.location.path == file.path)

    let fileURL = try NewSource.parse(file.absoluteString, catalog: catalog)
    #expect(fileURL.location.path == file.path)
  }

  @Test("A path that is missing or a directory is refused")
  func badPath() throws {
    let temp = try TemporaryDirectory()
    defer { temp.remove() }
    let missing = temp.file("missing.txt").path
    #expect(throws: StoreError.invalid(value: missing, reason: "is not an existing file")) {
      try NewSource.parse(missing)
    }
    #expect(throws: StoreError.invalid(value: temp.url.path, reason: "is not an existing file")) {
      try NewSource.parse(temp.url.path)
    }
    #expect(throws: StoreError.invalid(value: "file:///no/such/file.txt", reason: "is not an existing file")) {
      try NewSource.parse("file:///no/such/file.txt")
    }
  }

  @Test("A word that is neither an id, a URL nor a file is refused, pointing at the catalog")
  func unknownWord() {
    let error = #expect(throws: StoreError.self) {
      try NewSource.parse("adsblock", catalog: catalog, currentDirectory: "/nonexistent-dir")
    }
    guard case .invalid(let value, let reason) = error else {
      Issue.record("expected invalid, got \(String(describing: error))")
      return
    }
    #expect(value == "adsblock")
    #expect(reason.contains("sanehosts catalog"))
  }

  @Test(
    "suggestedKey names GitHub raw files by owner and repo, other URLs by host and file",
    arguments: [
      ("https://raw.githubusercontent.com/StevenBlack/hosts/master/hosts", "stevenblack-hosts"),
      ("https://raw.githubusercontent.com/anudeepND/blacklist/master/adservers.txt", "anudeepnd-blacklist-adservers"),
      (
        "https://raw.githubusercontent.com/hagezi/dns-blocklists/main/wildcard/light.txt",
        "hagezi-dns-blocklists-light"
      ),
      ("https://www.example.com/lists/ads.txt", "example-com-ads"),
      ("https://example.org/", "example-org"),
      ("https://big.oisd.nl/domainswild2", "big-oisd-nl-domainswild2"),
      ("file:///tmp/My%20List.txt", "my-list"),
      ("file:///tmp/%C3%BCberliste.txt", "berliste"),
      ("file:///tmp/___.txt", "list"),
      // A list served on this machine is named by its file (it was `127-0-0-1-8080-lists-ads`).
      ("http://127.0.0.1:8080/lists/ads.txt", "ads"), ("http://localhost:9000/blocklist", "blocklist"),
      ("http://127.0.0.1:8080/", "127-0-0-1"),
    ])
  func suggestedKey(url: String, key: String) throws {
    #expect(NewSource.suggestedKey(for: try #require(URL(string: url))) == key)
  }

  @Test("suggestedKey keeps to 48 characters and never ends in a dash")
  func suggestedKeyLength() throws {
    let url = try #require(URL(string: "https://example.com/\(String(repeating: "ab-", count: 40)).txt"))
    let key = NewSource.suggestedKey(for: url)
    #expect(key.count <= 48)
    #expect(key.hasPrefix("example-com-ab-ab"))
    #expect(!key.hasSuffix("-"))
    #expect(!key.contains("--"))
  }
}
