import Files
import Foundation
import Store

/// An apply asked for by a process that may not write the file itself (the dashboard, running as its own
/// user in the Debian package), for `Reapply` run as root to do: the package's sanehosts-apply.path starts
/// sanehosts-apply.service (`sanehosts reapply`) when the request file changes.
public struct ApplyRequest: Sendable, Hashable, Codable {
  /// `hosts` or a server target's name.
  public var target: String
  /// The file to write.
  public var path: String
  /// The profile (nil: the active one when it is applied).
  public var profile: String?
  /// Where its answers are verified (a drop-in's server), as the dashboard would have.
  public var verifyServer: String?
  /// When it was asked for.
  public var requestedAt: Date

  /// A request.
  public init(target: String, path: String, profile: String?, verifyServer: String?, requestedAt: Date = Date()) {
    self.target = target
    self.path = path
    self.profile = profile
    self.verifyServer = verifyServer
    self.requestedAt = requestedAt
  }

  /// The request file in a data directory (the one the package's path unit watches).
  public static func file(in data: DataDirectory) -> URL { data.file(name) }

  /// Adds `request` to the data directory's pending requests (one per path: the newest wins), replacing
  /// the file atomically, readable by its owner and group (the privileged unit runs as root).
  public static func submit(_ request: ApplyRequest, in data: DataDirectory) throws {
    var pending = read(in: data).filter { $0.path != request.path }
    pending.append(request)
    try FolderHandle.open(data.url.path, create: true).replace(
      name, with: Array(try JSONCoding.encode(pending)), mode: 0o640)
  }

  /// The request file's name in the data directory.
  static let name = "apply.request"

  /// The pending requests, oldest first. The file is read inside the data directory without following a
  /// link (`FolderHandle`): a link, FIFO or another user's file there is no request, and is not read.
  public static func read(in data: DataDirectory) -> [ApplyRequest] {
    guard let bytes = try? FolderHandle.open(data.url.path).read(name, limit: 1 << 20) else { return [] }
    return (try? JSONCoding.decode([ApplyRequest].self, from: Data(bytes))) ?? []
  }

  /// Takes the pending requests: reads them and removes the file (an empty, unreadable or refused one
  /// too: the package's path unit starts the apply while it exists), so each is done once.
  public static func take(in data: DataDirectory) -> [ApplyRequest] {
    let taken = read(in: data)
    (try? FolderHandle.open(data.url.path))?.remove(name)
    return taken
  }
}
