import Crypto
import Files
import Foundation
import Store

/// The dashboard's access token for clients on other machines, kept in the data directory (0600).
public enum AccessToken {
  /// The token file: `DATA/dashboard.token`.
  public static func file(in data: DataDirectory) -> URL { data.url.appendingPathComponent("dashboard.token") }

  /// The saved token, or a new one (saved 0600); `created` tells whether it was generated now. A saved
  /// file that others may read is made private (0600) before its token is used.
  public static func loadOrCreate(in data: DataDirectory) throws -> (token: String, created: Bool) {
    let url = file(in: data)
    if let text = try? String(contentsOf: url, encoding: .utf8) {
      let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
      if token.count >= 16 {
        let mode = (try? FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? 0
        if mode & 0o077 != 0 {
          try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        }
        return (token, false)
      }
    }
    let token = random()
    try data.create()
    let created = FileManager.default.createFile(
      atPath: url.path, contents: Data((token + "\n").utf8), attributes: [.posixPermissions: 0o600])
    if !created { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path]) }
    return (token, true)
  }

  /// 32 random bytes as 64 hex digits.
  public static func random() -> String {
    SymmetricKey(size: .bits256).withUnsafeBytes { $0.hexString }
  }

  /// Compares two secrets in time that does not depend on where they differ.
  public static func matches(_ given: some StringProtocol, _ expected: String) -> Bool {
    let a = Array(given.utf8)
    let b = Array(expected.utf8)
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
  }
}
