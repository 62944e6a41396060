import Blocklists
import Foundation

/// The built-in catalog of well-known public blocklists, and the presets that combine them.
///
/// The data lives in `Resources/catalog.json`, embedded in the binary; `scripts/check-catalog.py` and
/// the tests check it (unique ids and URLs, known formats and categories, cumulative presets).
public struct Catalog: Sendable, Hashable, Codable {
  /// The schema version of the data.
  public var version: Int
  /// The categories, in display order.
  public var categories: [Category]
  /// Every list, sorted by category then id.
  public var sources: [Entry]
  /// The presets, from weakest to strongest.
  public var presets: [Preset]

  /// Creates a catalog from its parts.
  public init(version: Int = 1, categories: [Category], sources: [Entry], presets: [Preset]) {
    self.version = version
    self.categories = categories
    self.sources = sources
    self.presets = presets
  }

  /// The catalog shipped with SaneHosts.
  public static let builtIn: Catalog = {
    do {
      return try Catalog(json: Data(PackageResources.catalog_json))
    } catch {
      preconditionFailure("The built-in catalog does not decode: \(error). Run scripts/check-catalog.py.")
    }
  }()

  /// Decodes a catalog from its JSON form.
  public init(json: Data) throws {
    self = try JSONDecoder().decode(Catalog.self, from: json)
  }

  /// The list with this id.
  public func entry(id: String) -> Entry? { sources.first { $0.id == id.lowercased() } }

  /// The list published at this URL.
  public func entry(url: URL) -> Entry? { sources.first { $0.url == url } }

  /// The category with this id.
  public func category(id: String) -> Category? { categories.first { $0.id == id.lowercased() } }

  /// The lists in a category.
  public func entries(in category: String) -> [Entry] { sources.filter { $0.category == category.lowercased() } }

  /// The preset with this id (or name, ignoring case).
  public func preset(id: String) -> Preset? {
    presets.first { $0.id == id.lowercased() || $0.name.lowercased() == id.lowercased() }
  }

  /// Every list a preset holds, its ancestors' first, in order and without repeats.
  public func entries(of preset: Preset) -> [Entry] {
    var ids: [String] = []
    var chain: [Preset] = []
    var current: Preset? = preset
    while let next = current, !chain.contains(next) {
      chain.insert(next, at: 0)
      current = next.extends.flatMap { self.preset(id: $0) }
    }
    for step in chain { for id in step.adds where !ids.contains(id) { ids.append(id) } }
    return ids.compactMap { entry(id: $0) }
  }
}

extension Catalog {
  /// A group of lists with the same purpose.
  public struct Category: Sendable, Hashable, Codable, Identifiable {
    /// The id used in commands, e.g. `ads`.
    public var id: String
    /// The display name.
    public var name: String
    /// What lists in the category block.
    public var description: String

    /// Creates a category.
    public init(id: String, name: String, description: String) {
      self.id = id
      self.name = name
      self.description = description
    }
  }

  /// One public list.
  public struct Entry: Sendable, Hashable, Codable, Identifiable {
    /// The id used in commands, e.g. `stevenblack-unified`.
    public var id: String
    /// The display name.
    public var name: String
    /// The project's home page.
    public var homepage: URL
    /// Where the list itself is published.
    public var url: URL
    /// The list's format as published.
    public var format: InputFormat
    /// The id of its category.
    public var category: String
    /// The licence (an SPDX id where there is one).
    public var licence: String
    /// About how many names it holds (an estimate, for sizing profiles).
    public var estimatedNames: Int
    /// One sentence on what it blocks.
    public var description: String
    /// Other places the same list is published, tried in order when `url` fails.
    public var mirrors: [URL]?

    /// Creates an entry.
    public init(
      id: String, name: String, homepage: URL, url: URL, format: InputFormat, category: String, licence: String,
      estimatedNames: Int, description: String, mirrors: [URL]? = nil
    ) {
      self.mirrors = mirrors
      self.id = id
      self.name = name
      self.homepage = homepage
      self.url = url
      self.format = format
      self.category = category
      self.licence = licence
      self.estimatedNames = estimatedNames
      self.description = description
    }
  }

  /// A named set of lists; each preset extends the one before it.
  public struct Preset: Sendable, Hashable, Codable, Identifiable {
    /// The id used in commands, e.g. `family-safe`.
    public var id: String
    /// The display name.
    public var name: String
    /// Who it is for.
    public var description: String
    /// The preset it builds on, if any.
    public var extends: String?
    /// The lists it adds to that preset.
    public var adds: [String]

    /// Creates a preset.
    public init(id: String, name: String, description: String, extends: String?, adds: [String]) {
      self.id = id
      self.name = name
      self.description = description
      self.extends = extends
      self.adds = adds
    }
  }
}
