import Files
import Foundation

/// The files a store's rows name (a copy `lists/KEY-SHA16.list`, its block set file, a profile's
/// `profiles/ID-FP16.blockset`) are reached through their folder's descriptor (`FolderHandle`), never
/// through a symbolic link, and only by a name inside that folder: a row is data another user may have
/// written (the Debian package's store), never a path root follows.
extension Store {
  /// A file of the store's `lists/` or `profiles/` folder as a row records it (`lists/NAME`).
  public struct StoredFile: Sendable {
    /// The folder, open.
    public let folder: FolderHandle
    /// The file's name in it.
    public let name: String

    /// A path for a writer that stages a file and renames it over this one (see
    /// `FolderHandle.anchoredPath`).
    public var writablePath: String { (try? folder.anchoredPath(name)) ?? "\(folder.path)/\(name)" }

    /// A file beside this one in the same folder.
    public func sibling(_ name: String) throws(StoreError) -> StoredFile {
      guard Store.isPlainName(name) else {
        throw .untrustedFile(path: "\(folder.path)/\(name)", detail: "is not a name inside \(folder.path)")
      }
      return StoredFile(folder: folder, name: name)
    }

    /// Runs `body` with a path naming the file, opened without following a link (no FIFO, device, link
    /// or foreign file: `untrustedFile`); nil when it does not exist.
    public func withPath<T>(_ body: (String) async throws -> T) async throws -> T? {
      do {
        return try await folder.withFile(name, body)
      } catch let failure as StagedFile.Failure {
        throw StoreError.untrustedFile(path: failure.path, detail: failure.detail)
      }
    }
  }

  /// The folders rows may name files in.
  public static let fileFolders = ["lists", "profiles"]

  /// The file a row names (`lists/NAME`, `profiles/NAME`): its folder opened inside the data directory
  /// without following a link. Any other value (an absolute path, `..`, a deeper path, another folder)
  /// is `untrustedFile`.
  public func storedFile(_ relative: String) throws(StoreError) -> StoredFile {
    let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 2, Self.fileFolders.contains(parts[0]), Self.isPlainName(parts[1]) else {
      throw .untrustedFile(
        path: relative, detail: "is not a file of the data directory's lists/ or profiles/ (a row names one there)")
    }
    do {
      let folder = try FolderHandle.open(directory.url.path).folder(parts[0], create: true)
      return StoredFile(folder: folder, name: parts[1])
    } catch {
      throw .untrustedFile(path: error.path, detail: error.detail)
    }
  }

  /// Whether `name` is one file name: not empty, no `/`, no NUL, not `.`, `..` or hidden.
  static func isPlainName(_ name: String) -> Bool {
    !name.isEmpty && !name.hasPrefix(".") && !name.utf8.contains(UInt8(ascii: "/")) && !name.utf8.contains(0)
  }
}
