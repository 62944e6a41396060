import Dashboard
import Foundation
import Store
import TestSupport
import Testing

@Suite("Access token")
struct AccessTokenTests {
  @Test("Generated once (64 hex digits, 0600), then reused")
  func loadOrCreate() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let data = DataDirectory(url: directory.file("data"))
    let (token, created) = try AccessToken.loadOrCreate(in: data)
    #expect(created && token.count == 64 && token.allSatisfy(\.isHexDigit))
    let mode =
      try FileManager.default.attributesOfItem(atPath: AccessToken.file(in: data).path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let (again, createdAgain) = try AccessToken.loadOrCreate(in: data)
    #expect(again == token && !createdAgain)
    #expect(AccessToken.random() != AccessToken.random())
  }

  @Test("A saved token file that others may read is made private before it is used")
  func tightensMode() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let data = DataDirectory(url: directory.file("data"))
    try data.create()
    let file = AccessToken.file(in: data)
    try Data("a-token-of-twenty-chars\n".utf8).write(to: file)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
    let (token, created) = try AccessToken.loadOrCreate(in: data)
    #expect(token == "a-token-of-twenty-chars" && !created)
    #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
  }

  @Test("Comparison is exact")
  func matches() {
    #expect(AccessToken.matches("abc", "abc"))
    #expect(!AccessToken.matches("abd", "abc"))
    #expect(!AccessToken.matches("ab", "abc"))
    #expect(!AccessToken.matches("", "abc"))
  }
}
