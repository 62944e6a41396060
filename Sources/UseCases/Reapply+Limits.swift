import Apply
import Blocklists
import DNS
import Foundation
import Store

extension Reapply {
  /// What a reapply may do with places it reads from the store, when the store is not to be trusted.
  ///
  /// Root reapplies from a data directory the dashboard's user can write (the Debian package): the ledger
  /// and `apply.request` there say which files to write and how to reload. Taken as they are, whoever
  /// runs as that user could make root write any file or signal any process. So root takes from such a
  /// store only the places an administrator chose: `/etc/hosts` as the hosts target, each DNS server's
  /// default drop-in as its own target, and the `TARGET:PATH` pairs of `SANEHOSTS_APPLY_PLACES` (set in
  /// the root-owned /etc/default/sanehosts); no symlink; a server reloaded only its own default way; the
  /// hosts file's address only an IP address.
  public struct Limits: Sendable, Hashable {
    /// The places allowed, as `target name` and symlink-resolved path; nil: any.
    public var places: Set<Place>?

    /// A place allowed.
    public struct Place: Sendable, Hashable {
      /// `hosts` or a server target's name.
      public var target: String
      /// The absolute, symlink-resolved path (`Ledger.key`).
      public var path: String

      /// A place.
      public init(target: String, path: String) {
        self.target = target
        self.path = Ledger.key(path)
      }
    }

    /// No limit: a store only its own user (or root's own) can write.
    public static let none = Limits(places: nil)

    /// The environment variable naming more places: `dnsmasq:/etc/dnsmasq.d/sanehosts.conf hosts:/srv/hosts`.
    public static let variable = "SANEHOSTS_APPLY_PLACES"

    /// The limits for this process on `data`: none unless it runs as root on a data directory another user
    /// owns; then `/etc/hosts`, each server's default drop-in, and `environment`'s `SANEHOSTS_APPLY_PLACES`.
    public static func forProcess(
      data: DataDirectory, environment: [String: String] = ProcessInfo.processInfo.environment,
      euid: uid_t = geteuid()
    ) -> Limits {
      var info = stat()
      let owner = stat(data.url.path, &info) == 0 ? info.st_uid : 0
      guard euid == 0, owner != 0 else { return .none }
      return administrators(environment[variable])
    }

    /// `/etc/hosts`, each server's default drop-in, and the `TARGET:PATH` words of `extra` (separated by
    /// spaces; an unknown target or a relative path is left out).
    public static func administrators(_ extra: String?) -> Limits {
      var places: Set<Place> = [Place(target: Target.hosts.name, path: "/etc/hosts")]
      for server in ServerTarget.allCases { places.insert(Place(target: server.rawValue, path: server.defaultOutput)) }
      for word in (extra ?? "").split(whereSeparator: \.isWhitespace) {
        guard let colon = word.firstIndex(of: ":"), Target(name: String(word[..<colon])) != nil else { continue }
        let path = String(word[word.index(after: colon)...])
        guard path.hasPrefix("/") else { continue }
        places.insert(Place(target: String(word[..<colon]), path: path))
      }
      return Limits(places: places)
    }

    /// Why `recipe` may not be applied to `path` as `target`; nil when it may.
    public func refusal(target: Target, path: String, recipe: Ledger.Recipe) -> String? {
      guard let places else { return nil }
      guard places.contains(Place(target: target.name, path: path)) else {
        return
          "not applied as root: \(path) as \(target.name) is not a place an administrator allowed (/etc/hosts, a server's default drop-in, or \(Self.variable) in /etc/default/sanehosts)"
      }
      var info = stat()
      if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK {
        return "not applied as root: \(path) is a symbolic link"
      }
      if let reload = recipe.options.reload, let server = target.server,
        reload != server.defaultReload(output: path)
      {
        return
          "not applied as root: the recorded reload (\(reload.command)) is not \(server.server)'s own (\(server.defaultReload(output: path).command)); apply it once as root with --reload"
      }
      if case .custom(let address) = recipe.options.address, IPAddress(address) == nil {
        return "not applied as root: the recorded address “\(address)” is not an IP address"
      }
      return nil
    }
  }
}
