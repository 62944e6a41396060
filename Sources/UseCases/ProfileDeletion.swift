import Apply
import Foundation
import Store

/// `profile delete`: a profile still applied somewhere is not deleted unless forced, since its names would
/// stay in that file with no profile to update them, and `status` would name a profile that is gone.
public enum ProfileDeletion {
  /// A file the profile is applied to now.
  public struct Applied: Sendable, Hashable {
    /// The file.
    public var path: String
    /// `hosts` or the server target.
    public var target: String
    /// Names it holds from the profile.
    public var names: Int

    /// Creates a record of an applied file.
    public init(path: String, target: String, names: Int) {
      self.path = path
      self.target = target
      self.names = names
    }
  }

  /// Why a profile is not deleted.
  public enum Failure: Error, LocalizedError, Equatable {
    /// It is applied to these files.
    case applied(profile: String, files: [Applied])

    public var errorDescription: String? {
      switch self {
      case .applied(let profile, let files):
        let list = files.map { "\($0.path) (\($0.target), \($0.names.formatted()) names)" }.joined(separator: ", ")
        return
          "Profile “\(profile)” is applied to \(list): deleting it would leave those names there with no profile to update them."
      }
    }

    public var recoverySuggestion: String? {
      switch self {
      case .applied(_, let files):
        let commands = files.map { file in
          file.target == "hosts"
            ? "sanehosts disable --hosts-file \(file.path)"
            : "sanehosts disable --target \(file.target) --output \(file.path)"
        }
        return "Take it off first (\(commands.joined(separator: "; "))), or delete it anyway with --force."
      }
    }
  }

  /// The files the ledger says hold this profile's names and that still exist.
  public static func appliedFiles(of profile: String, data: DataDirectory) -> [Applied] {
    AppliedFile.all(data: data, checkContent: false).filter { $0.holds(profile) }.map {
      Applied(path: $0.path, target: $0.target, names: $0.names)
    }
  }

  /// Deletes the profile, refusing (`Failure.applied`) while it is applied somewhere unless `force`;
  /// returns the files it was still applied to (empty when none).
  @discardableResult
  public static func delete(_ name: String, in store: Store, force: Bool) throws -> [Applied] {
    let profile = try store.profile(name)
    let applied = appliedFiles(of: profile.name, data: store.directory)
    if !applied.isEmpty && !force { throw Failure.applied(profile: profile.name, files: applied) }
    try store.deleteProfile(profile.name)
    // Files of it that are gone: nothing left to take off, so the ledger forgets them.
    AppliedFile.forgetGone(in: store, profile: profile.name)
    return applied
  }
}
