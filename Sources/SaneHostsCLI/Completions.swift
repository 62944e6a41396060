import ArgumentParser
import Catalog
import Foundation
import Store

/// Values the shells complete as they are typed: the store's source keys and profile names (read from
/// the store the command line names with `--data-dir`, else `$SANEHOSTS_HOME`, else the default), and
/// the catalog's ids and categories. A store that cannot be opened completes nothing.
enum Completions {
  /// Source keys of every profile.
  static let sourceKeys = CompletionKind.custom { words, _, prefix in
    matching(prefix, (try? store(words)?.allSources().map(\.key)) ?? [])
  }

  /// Profile names.
  static let profiles = CompletionKind.custom { words, _, prefix in
    matching(prefix, (try? store(words)?.profiles().map(\.name)) ?? [])
  }

  /// Catalog categories.
  static let categories = CompletionKind.list(Catalog.builtIn.categories.map(\.id))

  /// What `sources add` takes by name: the catalog's list ids (a URL or a path is typed).
  static let catalogEntries = CompletionKind.custom { _, _, prefix in
    matching(prefix, Catalog.builtIn.sources.map(\.id))
  }

  /// Presets, for `profile create --preset`.
  static let presets = CompletionKind.list(Catalog.builtIn.presets.map(\.id))

  static func matching(_ prefix: String, _ values: [String]) -> [String] {
    values.filter { $0.hasPrefix(prefix) }.sorted()
  }

  /// The store the words name (`--data-dir D` or `--data-dir=D`), read-only use.
  static func store(_ words: [String]) -> Store? {
    var explicit: String?
    for (index, word) in words.enumerated() {
      if word == "--data-dir", index + 1 < words.count { explicit = words[index + 1] }
      if word.hasPrefix("--data-dir=") { explicit = String(word.dropFirst("--data-dir=".count)) }
    }
    let directory = DataDirectory.resolve(explicit: explicit)
    guard FileManager.default.fileExists(atPath: directory.url.path) else { return nil }
    return try? Store.open(directory)
  }
}
