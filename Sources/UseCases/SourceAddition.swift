import Blocklists
import Catalog
import Downloads
import Foundation
import Store

/// Adding a list to a profile, checked once for `sanehosts sources add` and the dashboard's Sources
/// page: what the user typed read as a catalog id, a URL or a file, their choices applied, and every
/// location allowed by the download policy before anything is stored.
public struct SourceAddition: Sendable {
  /// What was added, or found there already (adding it again changes nothing, and is no error).
  public enum Outcome: Sendable, Hashable {
    case added(Source)
    case alreadyThere(key: String, location: String)
  }

  /// A catalog id, an `https://` (or `http://`) URL, or a file.
  public var text: String
  /// Only URLs: the dashboard adds no local file (a path is the command line's).
  public var onlyURLs = false
  /// The source's key and name, instead of the ones made from its location.
  public var name: String?
  /// How to read it, instead of recognising each line.
  public var format: InputFormat?
  /// A category for a list of one's own.
  public var category: String?
  /// Other URLs of the same list, tried when its own fails.
  public var mirrors: [String] = []

  /// An addition of `text`.
  public init(_ text: String) {
    self.text = text.trimmingCharacters(in: .whitespaces)
  }

  /// The source as it will be stored; throws when the text, a mirror or a location is refused.
  public func source() throws -> NewSource {
    if onlyURLs {
      guard !text.isEmpty else { throw SourceAdditionError.empty }
      let lowered = text.lowercased()
      guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else {
        throw SourceAdditionError.notURL(text)
      }
    }
    var new = try NewSource.parse(text)
    if let name, !name.isEmpty {
      new.key = name
      new.name = name
    }
    if let format { new.format = format }
    if let category { new.category = category }
    for text in mirrors {
      guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host() != nil else {
        throw SourceAdditionError.badMirror(text)
      }
      _ = try URLPolicy.check(url)
      new.mirrors.append(url)
    }
    // Refused now, not at the first update: plain http to another machine, another scheme.
    _ = try URLPolicy.check(new.location)
    return new
  }

  /// Adds the source to `profile` (nil: the active one).
  public func add(to profile: String? = nil, in store: Store) throws -> Outcome {
    let new = try source()
    do {
      return .added(try store.addSource(new, to: profile).source)
    } catch .alreadyInProfile(let key, let location, _) {
      return .alreadyThere(key: key, location: location)
    }
  }
}

/// Why a source is not added.
public enum SourceAdditionError: Error, Sendable, Hashable, LocalizedError {
  /// Nothing was given.
  case empty
  /// Not a URL where only URLs are taken.
  case notURL(String)
  /// A mirror that is not an http(s) URL.
  case badMirror(String)

  public var errorDescription: String? {
    switch self {
    case .empty: "Give the list's URL (https://…) or a catalog id."
    case .notURL(let text):
      "\"\(text)\" is not an http(s) URL. The dashboard adds lists by URL or catalog id; add a local file with `sanehosts sources add PATH`."
    case .badMirror(let text): "The mirror “\(text)” is not an http(s) URL."
    }
  }

  public var recoverySuggestion: String? {
    switch self {
    case .empty, .notURL: nil
    case .badMirror: "Give each --mirror as https://host/path (or http:// on this machine)."
    }
  }
}
