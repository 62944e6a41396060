import Blocklists
import Catalog
import Foundation

/// A source to add: a URL, a local file or a catalog entry, with optional name, format and category.
public struct NewSource: Sendable, Hashable {
  /// Where the list is, as a URL (`https://`, loopback `http://`, or `file://`).
  public var location: URL
  /// The short name used in commands; derived from the location when nil.
  public var key: String?
  /// The display name; the key when nil.
  public var name: String?
  /// The catalog entry, if it is one.
  public var catalogID: String?
  /// The format to force; `nil` recognises each line.
  public var format: InputFormat?
  /// Its category.
  public var category: String?
  /// Other places the same list is published, tried in order when `location` fails.
  public var mirrors: [URL] = []

  /// Creates a source description.
  public init(
    location: URL, key: String? = nil, name: String? = nil, catalogID: String? = nil, format: InputFormat? = nil,
    category: String? = nil, mirrors: [URL] = []
  ) {
    self.mirrors = mirrors
    self.location = location
    self.key = key
    self.name = name
    self.catalogID = catalogID
    self.format = format
    self.category = category
  }

  /// A catalog entry as a source.
  public init(_ entry: Catalog.Entry) {
    self.init(
      location: entry.url, key: entry.id, name: entry.name, catalogID: entry.id, format: entry.format,
      category: entry.category, mirrors: entry.mirrors ?? [])
  }

  /// Reads what the user typed: a catalog id, an `http(s)://` or `file://` URL, or a path to a local file.
  ///
  /// A URL that is in the catalog becomes that catalog entry. A path must name a readable file.
  public static func parse(
    _ text: String, catalog: Catalog = .builtIn, currentDirectory: String = FileManager.default.currentDirectoryPath
  ) throws(StoreError) -> NewSource {
    let lowered = text.lowercased()
    if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") || lowered.hasPrefix("file://") {
      guard let url = URL(string: text), url.scheme != nil, url.host() != nil || url.isFileURL else {
        throw .invalid(value: text, reason: "is not a valid URL")
      }
      if let entry = catalog.entry(url: url) { return NewSource(entry) }
      if url.isFileURL { return try file(url.path, text: text) }
      return NewSource(location: url)
    }
    if let scheme = lowered.range(of: "://").map({ String(lowered[..<$0.lowerBound]) }),
      !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
    {
      throw .invalid(
        value: text,
        reason: "uses \(scheme)://, which SaneHosts does not download: give an https:// or http:// URL, or a local file"
      )
    }
    if let entry = catalog.entry(id: text) { return NewSource(entry) }
    if text.contains("/") || text.contains(".") || FileManager.default.fileExists(atPath: text) {
      let path = text.hasPrefix("/") ? text : (currentDirectory as NSString).appendingPathComponent(text)
      return try file((path as NSString).standardizingPath, text: text)
    }
    throw .invalid(
      value: text,
      reason: "is neither a catalog id, a URL nor an existing file: see `sanehosts catalog` for ids")
  }

  private static func file(_ path: String, text: String) throws(StoreError) -> NewSource {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
      throw .invalid(value: text, reason: "is not an existing file")
    }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw .invalid(value: text, reason: "is a file you cannot read")
    }
    return NewSource(location: URL(fileURLWithPath: path))
  }

  /// A short name for a location: `owner-repo-file` for GitHub raw files, else host and file name.
  public static func suggestedKey(for url: URL) -> String {
    var parts: [String] = []
    let components = url.pathComponents.filter { $0 != "/" }
    let stem = ((components.last ?? "") as NSString).deletingPathExtension
    let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(url.host() ?? "")
    if url.isFileURL || (loopback && !stem.isEmpty) {
      // A file, or a list served on this machine: its address says nothing the name needs
      // (`127-0-0-1-8080-ads` was cut in the progress display, and repeated its own URL).
      parts = [stem]
    } else if url.host() == "raw.githubusercontent.com", components.count >= 2 {
      parts = [components[0], components[1]]
      if !["hosts", "list", "domains", ""].contains(stem.lowercased()) || components.count == 2 { parts.append(stem) }
    } else {
      var host = url.host() ?? "list"
      if host.hasPrefix("www.") { host.removeFirst(4) }
      parts = [host]
      if !stem.isEmpty { parts.append(stem) }
    }
    let slug = parts.joined(separator: "-").lowercased()
      .map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" }
      .reduce(into: "") { result, character in
        if character != "-" || (result.last != "-" && !result.isEmpty) { result.append(character) }
      }
    let trimmed = String(slug.prefix(48)).trimmingCharacters(in: CharacterSet(charactersIn: "-"))
    return trimmed.isEmpty ? "list" : trimmed
  }
}
